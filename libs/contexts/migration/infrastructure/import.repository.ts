import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ImportRecord } from './import.entity';

/** An import waiting for (or in the middle of) its run, with the caller it runs as. */
export interface UnfinishedImport {
  id: string;
  entityId: string;
  livemode: boolean;
}

@Injectable()
export class ImportRepository extends TenantRepository.of(ImportRecord, 'import') {
  /** The import by id alone (outside any caller: the worker reads it before it runs as the import's caller). */
  async findAnyById(id: string): Promise<ImportRecord | null> {
    return this.tx.manager.getRepository(ImportRecord).findOne({ where: { id } });
  }

  /** The import, locked for the open transaction. */
  async lockById(id: string): Promise<ImportRecord> {
    return this.tx.transactional
      .getRepository(ImportRecord)
      .createQueryBuilder('i')
      .where('i.id = :id', { id })
      .setLock('pessimistic_write')
      .getOneOrFail();
  }

  /** The index of the first row not yet committed. */
  async checkpoint(id: string): Promise<number> {
    const rows: { next_row: number }[] = await this.tx.manager.query(
      `SELECT next_row FROM imports WHERE id = $1`,
      [id],
    );
    return rows[0].next_row;
  }

  /** Every import of every entity still queued or running, last changed at least `untouchedForMs` ago. */
  async unfinished(untouchedForMs = 0): Promise<UnfinishedImport[]> {
    const rows: { id: string; entity_id: string; livemode: boolean }[] = await this.tx.manager.query(
      `SELECT id, entity_id, livemode FROM imports
        WHERE status IN ('queued', 'running') AND updated_at <= now() - $1 * interval '1 millisecond'`,
      [untouchedForMs],
    );
    return rows.map((r) => ({ id: r.id, entityId: r.entity_id, livemode: r.livemode }));
  }

  /** Records the start of the run (in the open transaction). */
  async markRunning(id: string): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE imports SET status = 'running', started_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
      [id],
    );
  }

  /** Records the end of the run with its final status (in the open transaction). */
  async markCompleted(id: string, status: ImportRecord['status']): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE imports SET status = $2, completed_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
      [id, status],
    );
  }

  /** Records the failure of the import as a whole (in the open transaction); the reason is cut at 500 characters. */
  async markFailed(id: string, reason: string): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE imports SET status = 'failed', failure_reason = $2, completed_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
      [id, reason.slice(0, 500)],
    );
  }
}
