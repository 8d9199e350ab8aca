import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `journal_entries_written(written, expected)`: fails the statement calling it, with the message
 * `journal_entries_not_written`, unless it wrote every entry it was given. A posting sent with
 * its transaction's COMMIT (nobody reads its answer) calls it, so an entry whose period was not
 * open rolls the whole transaction back instead of being skipped.
 */
export class JournalEntriesWritten1765500000000 implements MigrationInterface {
  name = 'JournalEntriesWritten1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION journal_entries_written(written bigint, expected bigint) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        IF written < expected THEN
          RAISE EXCEPTION 'journal_entries_not_written'
            USING DETAIL = format('%s of %s entries were written: a period was not open.', written, expected);
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS journal_entries_written(bigint, bigint)`);
  }
}
