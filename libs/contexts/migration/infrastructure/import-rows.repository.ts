import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { TransactionHost } from '#platform/persistence/transaction-host';
import type { SourceRow } from '../domain/import-source';

/**
 * The rows of an import's source (`import_rows`), numbered by `idx` among the source's rows. An
 * upload writes its rows piece by piece as they arrive, outside any transaction (a slow upload
 * holds none open), before the import itself is created; the worker reads one batch at a time;
 * the rows are deleted when the import finishes.
 */
@Injectable()
export class ImportRowsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tx: TransactionHost,
  ) {}

  /** Writes rows of an upload as they arrive (autocommit); `firstIndex` is the first row's idx. */
  async stage(importId: string, firstIndex: number, rows: readonly SourceRow[]): Promise<void> {
    await this.insert(this.dataSource.manager, importId, firstIndex, rows);
  }

  /** Writes the rows of a source known whole, in the open transaction. */
  async store(importId: string, rows: readonly SourceRow[]): Promise<void> {
    await this.insert(this.tx.transactional, importId, 0, rows);
  }

  /** The rows of indexes `from` to `from + limit - 1` that exist, in order. */
  async read(importId: string, from: number, limit: number): Promise<SourceRow[]> {
    const rows: { line: number; text: string }[] = await this.dataSource.query(
      `SELECT line, text FROM import_rows WHERE import_id = $1 AND idx >= $2 AND idx < $2 + $3 ORDER BY idx`,
      [importId, from, limit],
    );
    return rows.map((r) => ({ row: r.line, text: r.text }));
  }

  /** Deletes the rows of a finished import, in the open transaction. */
  async remove(importId: string): Promise<void> {
    await this.tx.transactional.query(`DELETE FROM import_rows WHERE import_id = $1`, [importId]);
  }

  /**
   * Deletes the rows of an upload that did not become an import (autocommit). Rows of an import
   * that exists are kept: its creation committed (whatever failed after it, such as queueing).
   */
  async discard(importId: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM import_rows WHERE import_id = $1 AND NOT EXISTS (SELECT 1 FROM imports WHERE id = $1)`,
      [importId],
    );
  }

  /**
   * Deletes rows written at least `olderThanMs` ago that no queued or running import will read:
   * rows of uploads that never became an import (the API stopped mid-upload), and rows left
   * under an import that finished without deleting them. Answers how many.
   */
  async purgeOrphans(olderThanMs: number): Promise<number> {
    const [, deleted] = (await this.dataSource.query(
      `DELETE FROM import_rows r
        WHERE r.created_at < now() - $1 * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = r.import_id AND i.status IN ('queued', 'running'))`,
      [olderThanMs],
    )) as [unknown, number];
    return deleted;
  }

  private async insert(
    manager: EntityManager,
    importId: string,
    firstIndex: number,
    rows: readonly SourceRow[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO import_rows (import_id, idx, line, text)
       SELECT $1, $2 + t.n - 1, t.line, t.text FROM unnest($3::int[], $4::text[]) WITH ORDINALITY AS t(line, text, n)`,
      [importId, firstIndex, rows.map((r) => r.row), rows.map((r) => r.text)],
    );
  }
}
