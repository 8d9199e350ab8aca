import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import's source as numbered rows instead of one text: the upload writes each chunk's rows
 * as they arrive, and the worker reads one batch of rows at a time, so neither holds the whole
 * source and the worker's memory does not grow with the size of the import. `idx` is the row's
 * place among the source's non-blank rows (the unit of the `next_row` checkpoint), `line` its
 * line in the upload. Rows are deleted when their import finishes. The sources of unfinished
 * imports move into rows; the staging table of upload chunks and the `source` column go.
 */
export class ImportRows1765640000000 implements MigrationInterface {
  name = 'ImportRows1765640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE import_rows (
        import_id uuid NOT NULL,
        idx integer NOT NULL,
        line integer NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (import_id, idx)
      )`);
    await q.query(`
      INSERT INTO import_rows (import_id, idx, line, text)
      SELECT i.id, (row_number() OVER (PARTITION BY i.id ORDER BY l.line) - 1)::int, l.line::int,
             regexp_replace(l.text, E'\\r$', '')
        FROM imports i, regexp_split_to_table(i.source, E'\\n') WITH ORDINALITY AS l(text, line)
       WHERE i.status IN ('queued', 'running') AND l.text !~ '^\\s*$'`);
    await q.query(`ALTER TABLE imports DROP COLUMN source`);
    await q.query(`DROP TABLE IF EXISTS import_upload_chunks`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE imports ADD COLUMN source text NOT NULL DEFAULT ''`);
    await q.query(`
      UPDATE imports i SET source = r.source
        FROM (SELECT import_id, string_agg(text, E'\\n' ORDER BY idx) AS source FROM import_rows GROUP BY import_id) r
       WHERE r.import_id = i.id`);
    await q.query(`DROP TABLE import_rows`);
    await q.query(`
      CREATE UNLOGGED TABLE import_upload_chunks (
        upload_id uuid NOT NULL,
        seq integer NOT NULL,
        chunk text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (upload_id, seq)
      )`);
  }
}
