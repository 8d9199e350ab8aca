import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/**
 * Inventory: the immutable stock ledger, one balance row per product, variant and location
 * (moved in the same transaction as its ledger rows), open commitments of order lines,
 * serial number records and the per-entity inventory settings.
 */
export class Inventory1765000000000 implements MigrationInterface {
  name = 'Inventory1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE inventory_settings (${TENANT},
        allow_negative_stock boolean NOT NULL DEFAULT false,
        default_location_id uuid,
        UNIQUE (entity_id, livemode)
      )`);
    await q.query(`
      CREATE TABLE inventory_balances (${TENANT},
        product_id uuid NOT NULL,
        variant_id uuid,
        location_id uuid NOT NULL,
        on_hand integer NOT NULL DEFAULT 0,
        allocated integer NOT NULL DEFAULT 0,
        on_order integer NOT NULL DEFAULT 0,
        unit_cost numeric(19,4) NOT NULL DEFAULT 0,
        value numeric(19,4) NOT NULL DEFAULT 0,
        reorder_point integer CHECK (reorder_point >= 0),
        reorder_quantity integer CHECK (reorder_quantity >= 0),
        safety_stock integer CHECK (safety_stock >= 0),
        stock_level text NOT NULL DEFAULT 'out' CHECK (stock_level IN ('in_stock', 'low', 'out'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX inventory_balances_key ON inventory_balances
         (entity_id, livemode, product_id, location_id, coalesce(variant_id, '00000000-0000-0000-0000-000000000000'::uuid))`,
    );
    await q.query(`CREATE INDEX inventory_balances_keyset ON inventory_balances (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX inventory_balances_location ON inventory_balances (entity_id, livemode, location_id, id)`,
    );
    await q.query(`
      CREATE TABLE inventory_transactions (${TENANT},
        balance_id uuid NOT NULL REFERENCES inventory_balances(id),
        product_id uuid NOT NULL,
        variant_id uuid,
        location_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('receipt', 'adjustment', 'transfer_out', 'transfer_in', 'fulfillment',
          'return', 'build_consumption', 'build_output', 'cycle_count')),
        quantity integer NOT NULL,
        unit_cost numeric(19,4) NOT NULL,
        value numeric(19,4) NOT NULL,
        source_type text,
        source_id uuid,
        order_id uuid,
        order_item_id uuid,
        reason text,
        serial_numbers jsonb NOT NULL DEFAULT '[]',
        journal_entry_id uuid,
        occurred_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX inventory_transactions_keyset ON inventory_transactions (entity_id, livemode, id)`,
    );
    await q.query(`CREATE INDEX inventory_transactions_balance ON inventory_transactions (balance_id, id)`);
    await q.query(
      `CREATE INDEX inventory_transactions_product ON inventory_transactions (entity_id, livemode, product_id, id)`,
    );
    await q.query(
      `CREATE INDEX inventory_transactions_source ON inventory_transactions (entity_id, livemode, source_id)`,
    );
    // The ledger is append-only: a correction is a new transaction.
    await q.query(`
      CREATE FUNCTION inventory_transactions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'inventory_transactions rows are immutable';
      END $$`);
    await q.query(`
      CREATE TRIGGER inventory_transactions_no_update BEFORE UPDATE ON inventory_transactions
        FOR EACH ROW EXECUTE FUNCTION inventory_transactions_immutable()`);
    await q.query(`
      CREATE TABLE stock_commitments (${TENANT},
        kind text NOT NULL CHECK (kind IN ('allocated', 'on_order')),
        order_id uuid NOT NULL,
        order_item_id uuid NOT NULL,
        product_id uuid NOT NULL,
        location_id uuid,
        quantity integer NOT NULL DEFAULT 0,
        open_quantity integer NOT NULL DEFAULT 0 CHECK (open_quantity >= 0),
        done_quantity integer NOT NULL DEFAULT 0 CHECK (done_quantity >= 0),
        UNIQUE (entity_id, livemode, order_item_id, kind)
      )`);
    await q.query(
      `CREATE INDEX stock_commitments_order ON stock_commitments (entity_id, livemode, order_id)`,
    );
    await q.query(`
      CREATE TABLE serial_numbers (${TENANT},
        product_id uuid NOT NULL,
        variant_id uuid,
        serial_number text NOT NULL,
        status text NOT NULL CHECK (status IN ('available', 'allocated', 'sold', 'returned', 'damaged',
          'quarantined', 'end_of_life', 'consumed_in_manufacturing', 'disassembled')),
        location_id uuid,
        order_id uuid,
        order_item_id uuid,
        lot_number text,
        expiry_date date,
        warranty_start_date date,
        warranty_end_date date,
        extended_warranty_end_date date,
        warranty_status text,
        received_at timestamptz,
        sold_at timestamptz,
        returned_at timestamptz,
        last_scanned_at timestamptz
      )`);
    await q.query(
      `CREATE UNIQUE INDEX serial_numbers_unique ON serial_numbers (entity_id, livemode, product_id, serial_number)`,
    );
    await q.query(`CREATE INDEX serial_numbers_keyset ON serial_numbers (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX serial_numbers_order ON serial_numbers (entity_id, livemode, order_id, order_item_id)`,
    );
    await q.query(
      `CREATE INDEX serial_numbers_search ON serial_numbers (entity_id, livemode, lower(serial_number) text_pattern_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE serial_numbers`);
    await q.query(`DROP TABLE stock_commitments`);
    await q.query(`DROP TABLE inventory_transactions`);
    await q.query(`DROP FUNCTION inventory_transactions_immutable()`);
    await q.query(`DROP TABLE inventory_balances`);
    await q.query(`DROP TABLE inventory_settings`);
  }
}
