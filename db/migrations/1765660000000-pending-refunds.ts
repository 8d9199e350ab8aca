import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds through the payment processor in three steps (reserve, call, record): a refund is
 * `pending` from its reservation until the processor's answer is recorded, then `succeeded` or
 * `failed`; `return_id` names the return whose credit memo a payment refund belongs to (finished
 * with that return's refund). `return_authorizations.pending_refund` holds a return refund
 * reserved and waiting for the processor's answers.
 */
export class PendingRefunds1765660000000 implements MigrationInterface {
  name = 'PendingRefunds1765660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT IF EXISTS refunds_status_check`);
    await q.query(`
      ALTER TABLE refunds
        ADD CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        ADD COLUMN return_id uuid`);
    await q.query(
      `CREATE INDEX refunds_pending ON refunds (entity_id, livemode, payment_id) WHERE status = 'pending'`,
    );
    await q.query(`ALTER TABLE return_authorizations ADD COLUMN pending_refund jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE return_authorizations DROP COLUMN pending_refund`);
    await q.query(`DROP INDEX refunds_pending`);
    await q.query(`DELETE FROM refunds WHERE status <> 'succeeded'`);
    await q.query(`
      ALTER TABLE refunds
        DROP CONSTRAINT refunds_status_check,
        DROP COLUMN return_id,
        ADD CONSTRAINT refunds_status_check CHECK (status IN ('succeeded'))`);
  }
}
