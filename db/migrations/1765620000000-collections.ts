import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Collections: an issued invoice's `due_date` (from its account's payment terms),
 * `collection_status` (`current` / `overdue`, null on other documents), when it went overdue and
 * how many late fees it was charged (null: none); the entity's late-fee policy beside its other accounting
 * settings. The partial index serves the collections sweep, which reads only issued invoices
 * with something due and a due date.
 */
export class Collections1765620000000 implements MigrationInterface {
  name = 'Collections1765620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE orders
        ADD COLUMN due_date date,
        ADD COLUMN collection_status text,
        ADD COLUMN overdue_at timestamptz,
        ADD COLUMN late_fees_charged integer`);
    await q.query(`
      CREATE INDEX orders_collections_due ON orders (due_date)
       WHERE document_type = 'invoice' AND due_date IS NOT NULL AND amount_due > 0
         AND order_status IN ('confirmed', 'fulfilled', 'closed')`);
    await q.query(`
      ALTER TABLE accounting_settings
        ADD COLUMN late_fee_type text NOT NULL DEFAULT 'none',
        ADD COLUMN late_fee_amount numeric(19,4),
        ADD COLUMN late_fee_minimum numeric(19,4),
        ADD COLUMN late_fee_grace_days integer NOT NULL DEFAULT 0,
        ADD COLUMN late_fee_frequency text NOT NULL DEFAULT 'per_invoice',
        ADD COLUMN late_fee_period_days integer NOT NULL DEFAULT 30`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS orders_collections_due`);
    await q.query(`
      ALTER TABLE orders DROP COLUMN due_date, DROP COLUMN collection_status,
        DROP COLUMN overdue_at, DROP COLUMN late_fees_charged`);
    await q.query(`
      ALTER TABLE accounting_settings DROP COLUMN late_fee_type, DROP COLUMN late_fee_amount,
        DROP COLUMN late_fee_minimum, DROP COLUMN late_fee_grace_days,
        DROP COLUMN late_fee_frequency, DROP COLUMN late_fee_period_days`);
  }
}
