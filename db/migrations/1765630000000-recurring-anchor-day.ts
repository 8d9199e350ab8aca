import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `recurring_journal_entries.anchor_day`: the day of the month (1-31) a monthly, quarterly or
 * yearly template runs on, clamped to each month's length, so a template started on the 31st
 * stays at month-end (01-31, 02-28, 03-31) instead of drifting to the 28th. Existing templates
 * take the day of their next run.
 */
export class RecurringAnchorDay1765630000000 implements MigrationInterface {
  name = 'RecurringAnchorDay1765630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE recurring_journal_entries ADD COLUMN anchor_day smallint`);
    await q.query(
      `UPDATE recurring_journal_entries SET anchor_day = extract(day FROM next_run_date)::smallint`,
    );
    await q.query(
      `ALTER TABLE recurring_journal_entries ALTER COLUMN anchor_day SET NOT NULL,
         ADD CONSTRAINT recurring_journal_entries_anchor_day CHECK (anchor_day BETWEEN 1 AND 31)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE recurring_journal_entries DROP COLUMN IF EXISTS anchor_day`);
  }
}
