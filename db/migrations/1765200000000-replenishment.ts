import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT_COLUMNS = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/**
 * Replenishment: product vendors, kit components (bills of materials), builds, and the per-day
 * demand aggregates kept current by the stock-movement observer (so run rates and the reorder
 * report never scan the stock ledger), the shipped units per sales order line that
 * current_demand_units nets against, and sales order lines' parent_line_id (kit component lines).
 */
export class Replenishment1765200000000 implements MigrationInterface {
  name = 'Replenishment1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE product_vendors (${TENANT_COLUMNS},
        product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        vendor_account_id uuid NOT NULL,
        vendor_sku text,
        unit_cost numeric(19,4) CHECK (unit_cost >= 0),
        currency char(3) NOT NULL,
        lead_time_days integer NOT NULL DEFAULT 0 CHECK (lead_time_days >= 0),
        min_order_quantity integer NOT NULL DEFAULT 1 CHECK (min_order_quantity >= 0),
        order_multiple integer NOT NULL DEFAULT 1 CHECK (order_multiple >= 1),
        is_preferred boolean NOT NULL DEFAULT false
      )`);
    await q.query(
      `CREATE UNIQUE INDEX product_vendors_account ON product_vendors (entity_id, livemode, product_id, vendor_account_id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX product_vendors_preferred ON product_vendors (entity_id, livemode, product_id) WHERE is_preferred`,
    );
    await q.query(
      `CREATE INDEX product_vendors_keyset ON product_vendors (entity_id, livemode, product_id, id)`,
    );
    await q.query(
      `CREATE INDEX product_vendors_by_account ON product_vendors (entity_id, livemode, vendor_account_id)`,
    );

    await q.query(`
      CREATE TABLE kit_components (${TENANT_COLUMNS},
        kit_product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        component_product_id uuid NOT NULL REFERENCES products(id),
        quantity integer NOT NULL CHECK (quantity > 0),
        CHECK (kit_product_id <> component_product_id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX kit_components_pair ON kit_components (entity_id, livemode, kit_product_id, component_product_id)`,
    );
    await q.query(
      `CREATE INDEX kit_components_keyset ON kit_components (entity_id, livemode, kit_product_id, id)`,
    );
    await q.query(
      `CREATE INDEX kit_components_component ON kit_components (entity_id, livemode, component_product_id)`,
    );

    await q.query(`
      CREATE TABLE builds (${TENANT_COLUMNS},
        kit_product_id uuid NOT NULL REFERENCES products(id),
        location_id uuid NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        order_line_id uuid,
        status text NOT NULL CHECK (status IN ('draft', 'posted', 'voided')),
        components jsonb NOT NULL DEFAULT '[]',
        unit_cost numeric(19,4),
        total_cost numeric(19,4),
        journal_entry_id uuid,
        notes text,
        posted_at timestamptz,
        voided_at timestamptz
      )`);
    await q.query(`CREATE INDEX builds_keyset ON builds (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX builds_order_line ON builds (entity_id, livemode, order_line_id) WHERE order_line_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE demand_daily (
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        product_id uuid NOT NULL,
        location_id uuid NOT NULL,
        day date NOT NULL,
        kind text NOT NULL CHECK (kind IN ('sale', 'component', 'build')),
        units bigint NOT NULL,
        PRIMARY KEY (entity_id, livemode, product_id, location_id, day, kind)
      )`);

    await q.query(`
      CREATE TABLE demand_line_shipments (
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        order_line_id uuid NOT NULL,
        product_id uuid NOT NULL,
        units bigint NOT NULL,
        PRIMARY KEY (entity_id, livemode, order_line_id)
      )`);

    // Sales: a kit line assembled to order carries its components as child lines.
    await q.query(
      `ALTER TABLE order_lines ADD COLUMN parent_line_id uuid REFERENCES order_lines(id) ON DELETE CASCADE`,
    );
    await q.query(
      `CREATE INDEX order_lines_parent ON order_lines (entity_id, livemode, parent_line_id) WHERE parent_line_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX order_lines_product ON order_lines (entity_id, livemode, product_id) WHERE product_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS order_lines_product`);
    await q.query(`DROP INDEX IF EXISTS order_lines_parent`);
    await q.query(`ALTER TABLE order_lines DROP COLUMN IF EXISTS parent_line_id`);
    for (const table of [
      'demand_line_shipments',
      'demand_daily',
      'builds',
      'kit_components',
      'product_vendors',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
