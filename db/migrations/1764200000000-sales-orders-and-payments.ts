import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT_COLUMNS = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

const MONEY = 'numeric(19,4) NOT NULL DEFAULT 0';

/** Sales context: order documents with their lines, payments with their applications, refunds, customer credits. */
export class SalesOrdersAndPayments1764200000000 implements MigrationInterface {
  name = 'SalesOrdersAndPayments1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE orders (${TENANT_COLUMNS},
        document_type text NOT NULL CHECK (document_type IN ('quote', 'sales_order', 'invoice', 'return', 'purchase_order', 'late_fee_invoice')),
        account_id uuid REFERENCES accounts(id) ON DELETE RESTRICT,
        currency char(3) NOT NULL,
        order_status text NOT NULL CHECK (order_status IN ('draft', 'confirmed', 'fulfilled', 'closed', 'cancelled', 'voided')),
        payment_status text NOT NULL CHECK (payment_status IN ('unpaid', 'partially_paid', 'paid', 'refunded')),
        subtotal ${MONEY}, discount_total ${MONEY}, tax_total ${MONEY}, total ${MONEY},
        amount_paid ${MONEY}, amount_refunded ${MONEY}, amount_due ${MONEY},
        source_order_id uuid REFERENCES orders(id) ON DELETE SET NULL,
        converted_to_id uuid REFERENCES orders(id) ON DELETE SET NULL,
        confirmed_at timestamptz, cancelled_at timestamptz, voided_at timestamptz,
        fulfilled_at timestamptz, closed_at timestamptz,
        sent_to_customer_at timestamptz,
        revised_at timestamptz,
        revision_count integer NOT NULL DEFAULT 0,
        revision_acknowledged_at timestamptz,
        acknowledged_total numeric(19,4),
        notes text,
        metadata jsonb NOT NULL DEFAULT '{}'
      )`);
    // Keysets of GET /orders: newest first over every type, by type, by account.
    await q.query(`CREATE INDEX orders_keyset ON orders (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX orders_type_keyset ON orders (entity_id, livemode, document_type, id)`);
    await q.query(`CREATE INDEX orders_account_keyset ON orders (entity_id, livemode, account_id, id)`);
    await q.query(`CREATE INDEX orders_created_at ON orders (entity_id, livemode, created_at)`);
    await q.query(`
      CREATE TABLE order_lines (${TENANT_COLUMNS},
        order_id uuid NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        position integer NOT NULL,
        product_id uuid,
        description text NOT NULL,
        quantity numeric(19,4) NOT NULL CHECK (quantity > 0),
        list_price numeric(19,4) CHECK (list_price >= 0),
        unit_price numeric(19,4) NOT NULL CHECK (unit_price >= 0),
        pricing_policy_id uuid,
        discount_percent numeric(9,4) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
        discount_amount ${MONEY} CHECK (discount_amount >= 0),
        tax_rate numeric(9,4) NOT NULL DEFAULT 0 CHECK (tax_rate >= 0 AND tax_rate <= 100),
        subtotal ${MONEY}, discount_total ${MONEY}, tax_total ${MONEY}, total ${MONEY}
      )`);
    await q.query(`CREATE INDEX order_lines_order ON order_lines (entity_id, livemode, order_id, position)`);
    await q.query(`CREATE INDEX order_lines_keyset ON order_lines (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE payments (${TENANT_COLUMNS},
        account_id uuid REFERENCES accounts(id) ON DELETE RESTRICT,
        order_id uuid REFERENCES orders(id) ON DELETE RESTRICT,
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        amount_refunded ${MONEY},
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('succeeded', 'failed', 'partially_refunded', 'refunded')),
        method text NOT NULL,
        payment_method_id uuid,
        card_brand text,
        card_last4 char(4),
        processor_reference text,
        failure_code text,
        failure_message text,
        reference text,
        metadata jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE INDEX payments_keyset ON payments (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX payments_order ON payments (entity_id, livemode, order_id, id)`);
    await q.query(`
      CREATE TABLE payment_applications (${TENANT_COLUMNS},
        payment_id uuid NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
        order_id uuid NOT NULL REFERENCES orders(id) ON DELETE RESTRICT,
        amount numeric(19,4) NOT NULL CHECK (amount > 0)
      )`);
    await q.query(
      `CREATE INDEX payment_applications_payment ON payment_applications (entity_id, livemode, payment_id)`,
    );
    await q.query(
      `CREATE INDEX payment_applications_order ON payment_applications (entity_id, livemode, order_id)`,
    );
    await q.query(`
      CREATE TABLE refunds (${TENANT_COLUMNS},
        payment_id uuid NOT NULL REFERENCES payments(id) ON DELETE RESTRICT,
        order_id uuid REFERENCES orders(id) ON DELETE RESTRICT,
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL,
        status text NOT NULL CHECK (status IN ('succeeded')),
        reason text,
        processor_reference text
      )`);
    await q.query(`CREATE INDEX refunds_keyset ON refunds (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX refunds_payment ON refunds (entity_id, livemode, payment_id, id)`);
    await q.query(`
      CREATE TABLE customer_credits (${TENANT_COLUMNS},
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE RESTRICT,
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        reference text NOT NULL
      )`);
    await q.query(
      `CREATE INDEX customer_credits_account ON customer_credits (entity_id, livemode, account_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'customer_credits',
      'refunds',
      'payment_applications',
      'payments',
      'order_lines',
      'orders',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
