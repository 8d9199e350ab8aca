import { MigrationInterface, QueryRunner } from 'typeorm';
import { JournalNumbersAtCommit1764600000000 } from './1764600000000-journal-numbers-at-commit';

/**
 * Journal entries are numbered by the statement that writes them: it takes as many numbers as
 * it writes entries from the entity's counter row and formats them with
 * `journal_entry_number_text(prefix, n)` (`<prefix>-000042`). No entry is written with a
 * placeholder any more, so the at-commit numbering triggers of 1764600000000 are dropped.
 */
export class JournalNumberFunction1764700000000 implements MigrationInterface {
  name = 'JournalNumberFunction1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS outbox_events_entry_number ON outbox_events`);
    await q.query(`DROP FUNCTION IF EXISTS outbox_events_entry_number()`);
    await q.query(`DROP TRIGGER IF EXISTS journal_entries_number_at_commit ON journal_entries`);
    await q.query(`DROP FUNCTION IF EXISTS journal_entries_number_at_commit()`);
    await q.query(`DROP FUNCTION IF EXISTS number_journal_entry(uuid)`);
    await q.query(`
      CREATE FUNCTION journal_entry_number_text(prefix text, n bigint) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT AS $$
        SELECT prefix || '-' || CASE WHEN length(n::text) >= 6 THEN n::text ELSE lpad(n::text, 6, '0') END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS journal_entry_number_text(text, bigint)`);
    await new JournalNumbersAtCommit1764600000000().up(q);
  }
}
