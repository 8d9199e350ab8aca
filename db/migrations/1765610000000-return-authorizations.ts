import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Returns as their own resource: `return_authorizations` holds what a return authorises (the
 * shipped units of one sales order that may come back, and why), what came back (received
 * units, their value) and what was refunded; its id is the id of the return document (an order
 * of document_type `return`) that carries the lines' prices. `orders.amount_credited`: what
 * credit memos took off an invoice.
 */
export class ReturnAuthorizations1765610000000 implements MigrationInterface {
  name = 'ReturnAuthorizations1765610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE return_authorizations (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        livemode boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        account_id uuid NOT NULL,
        order_id uuid NOT NULL,
        currency char(3) NOT NULL,
        status text NOT NULL,
        reason text,
        lines jsonb NOT NULL,
        received_net numeric(19,4) NOT NULL DEFAULT 0,
        received_tax numeric(19,4) NOT NULL DEFAULT 0,
        amount_refunded numeric(19,4) NOT NULL DEFAULT 0,
        refunds jsonb NOT NULL DEFAULT '[]',
        received_at timestamptz,
        refunded_at timestamptz,
        cancelled_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX return_authorizations_order ON return_authorizations (entity_id, livemode, order_id, id)`,
    );
    await q.query(
      `CREATE INDEX return_authorizations_account ON return_authorizations (entity_id, livemode, account_id, id)`,
    );
    await q.query(`ALTER TABLE orders ADD COLUMN amount_credited numeric(19,4) NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders DROP COLUMN amount_credited`);
    await q.query(`DROP TABLE IF EXISTS return_authorizations`);
  }
}
