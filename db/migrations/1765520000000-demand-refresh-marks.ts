import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `demand_refresh_marks`: a row per product whose demand a committed stock movement changed, so
 * its stored `demand_avg_per_day` is refreshed after the commit (replenishment's
 * DemandAverageRefresher deletes the marks it refreshes, in the refresh's own transaction). No
 * key: concurrent movements of one product each append a row and never wait on each other.
 */
export class DemandRefreshMarks1765520000000 implements MigrationInterface {
  name = 'DemandRefreshMarks1765520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE demand_refresh_marks (
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        product_id uuid NOT NULL,
        marked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX demand_refresh_marks_scope ON demand_refresh_marks (entity_id, livemode)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS demand_refresh_marks`);
  }
}
