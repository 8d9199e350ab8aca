import { MigrationInterface, QueryRunner } from 'typeorm';

/** The shipment-notification sweeper reads queued notifications by age across entities. */
export class QueuedNotificationsIndex1765440000000 implements MigrationInterface {
  name = 'QueuedNotificationsIndex1765440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX shipment_notifications_queued ON shipment_notifications (created_at) WHERE status = 'queued'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS shipment_notifications_queued`);
  }
}
