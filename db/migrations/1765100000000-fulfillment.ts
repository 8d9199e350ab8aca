import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/**
 * Fulfillment: packages and their items, shipping rates (quotes valid for a while), bought
 * labels with their files, the per-entity settings row that numbers packages (gapless: the
 * counter moves in the creating transaction) and holds the insurance threshold, shipment
 * notifications recorded by the sandbox notifier, and return receipts against shipped packages.
 */
export class Fulfillment1765100000000 implements MigrationInterface {
  name = 'Fulfillment1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE fulfillment_settings (${TENANT},
        last_package_number bigint NOT NULL DEFAULT 0,
        package_number_prefix text NOT NULL,
        insurance_threshold numeric(19,4) CHECK (insurance_threshold >= 0),
        UNIQUE (entity_id, livemode)
      )`);
    await q.query(`
      CREATE TABLE packages (${TENANT},
        order_id uuid NOT NULL,
        package_number text NOT NULL,
        status text NOT NULL CHECK (status IN ('packing', 'packed', 'labeled', 'shipped', 'delivered', 'returned', 'void')),
        box_product_id uuid,
        weight_lb numeric(19,4),
        length_in numeric(19,4),
        width_in numeric(19,4),
        height_in numeric(19,4),
        carrier text,
        service_level text,
        tracking_number text,
        tracking_url text,
        ship_cost numeric(19,4),
        billed_ship_cost numeric(19,4),
        location_id uuid,
        insurance_amount_override numeric(19,4),
        insured_amount numeric(19,4),
        insurance_fee numeric(19,4),
        notes text,
        metadata jsonb NOT NULL DEFAULT '{}',
        revision_override jsonb,
        cost_of_goods numeric(19,4),
        shipped_at timestamptz,
        delivered_at timestamptz,
        voided_at timestamptz,
        returned_at timestamptz,
        UNIQUE (entity_id, livemode, package_number)
      )`);
    await q.query(`CREATE INDEX packages_keyset ON packages (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX packages_order ON packages (entity_id, livemode, order_id)`);
    await q.query(`
      CREATE TABLE package_items (${TENANT},
        package_id uuid NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
        order_id uuid NOT NULL,
        order_item_id uuid NOT NULL,
        product_id uuid NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        serial_numbers jsonb NOT NULL DEFAULT '[]',
        unit_price numeric(19,4) NOT NULL,
        unit_cost numeric(19,4),
        returned_quantity integer NOT NULL DEFAULT 0 CHECK (returned_quantity >= 0 AND returned_quantity <= quantity),
        returned_serials jsonb NOT NULL DEFAULT '[]',
        position integer NOT NULL
      )`);
    await q.query(`CREATE INDEX package_items_package ON package_items (package_id, position)`);
    await q.query(`CREATE INDEX package_items_order ON package_items (entity_id, livemode, order_id)`);
    await q.query(`
      CREATE TABLE shipping_rates (${TENANT},
        rate_object_id text NOT NULL,
        order_id uuid NOT NULL,
        package_id uuid NOT NULL,
        provider text NOT NULL,
        provider_shipment_id text,
        provider_rate_id text,
        carrier text NOT NULL,
        service_level text NOT NULL,
        amount numeric(19,4) NOT NULL,
        currency char(3) NOT NULL,
        estimated_days integer,
        insurance_fee numeric(19,4) NOT NULL,
        insured_amount numeric(19,4),
        expires_at timestamptz NOT NULL,
        UNIQUE (entity_id, livemode, rate_object_id)
      )`);
    await q.query(`
      CREATE TABLE package_labels (${TENANT},
        package_id uuid NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
        provider text NOT NULL,
        provider_shipment_id text,
        rate_object_id text NOT NULL,
        carrier text NOT NULL,
        service_level text NOT NULL,
        tracking_number text NOT NULL,
        file_type text NOT NULL CHECK (file_type IN ('PDF', 'PNG', 'ZPLII')),
        content_type text NOT NULL,
        content bytea NOT NULL,
        amount numeric(19,4) NOT NULL,
        insured_amount numeric(19,4),
        insurance_fee numeric(19,4),
        refund_status text CHECK (refund_status IN ('refunded', 'rejected')),
        UNIQUE (package_id)
      )`);
    await q.query(`
      CREATE TABLE shipment_notifications (${TENANT},
        package_id uuid NOT NULL,
        order_id uuid NOT NULL,
        channel text NOT NULL,
        recipient text,
        subject text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent')),
        sent_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX shipment_notifications_package ON shipment_notifications (entity_id, livemode, package_id)`,
    );
    await q.query(`
      CREATE TABLE return_receipts (${TENANT},
        return_order_id uuid NOT NULL,
        package_id uuid NOT NULL,
        order_id uuid NOT NULL,
        location_id uuid NOT NULL,
        lines jsonb NOT NULL,
        total_value numeric(19,4) NOT NULL,
        revenue_reversed numeric(19,4) NOT NULL
      )`);
    await q.query(
      `CREATE INDEX return_receipts_return ON return_receipts (entity_id, livemode, return_order_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'return_receipts',
      'shipment_notifications',
      'package_labels',
      'shipping_rates',
      'package_items',
      'packages',
      'fulfillment_settings',
    ])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
