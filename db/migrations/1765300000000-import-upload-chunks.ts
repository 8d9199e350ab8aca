import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Staging of streamed NDJSON uploads: the API writes an upload a chunk at a time as it arrives
 * (it never holds the whole body), then builds the import's source from the chunks in one
 * statement and deletes them. Unlogged: a chunk is worth nothing after a crash.
 */
export class ImportUploadChunks1765300000000 implements MigrationInterface {
  name = 'ImportUploadChunks1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE import_upload_chunks (
        upload_id uuid NOT NULL,
        seq integer NOT NULL,
        chunk text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS import_upload_chunks`);
  }
}
