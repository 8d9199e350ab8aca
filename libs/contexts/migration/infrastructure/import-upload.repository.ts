import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionHost } from '#platform/persistence/transaction-host';

/**
 * Chunks of a streamed upload, staged as they arrive (outside any transaction, so a slow upload
 * holds no transaction open), then moved into the import's source in one statement.
 */
@Injectable()
export class ImportUploadRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tx: TransactionHost,
  ) {}

  async append(uploadId: string, seq: number, chunk: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO import_upload_chunks (upload_id, seq, chunk) VALUES ($1, $2, $3)`,
      [uploadId, seq, chunk],
    );
  }

  /** Sets the import's source to the upload's chunks, in order, and drops them (in the caller's transaction). */
  async moveToImport(uploadId: string, importId: string): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE imports SET source = (SELECT string_agg(chunk, '' ORDER BY seq) FROM import_upload_chunks WHERE upload_id = $1)
        WHERE id = $2`,
      [uploadId, importId],
    );
    await this.tx.transactional.query(`DELETE FROM import_upload_chunks WHERE upload_id = $1`, [uploadId]);
  }

  async discard(uploadId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM import_upload_chunks WHERE upload_id = $1`, [uploadId]);
  }
}
