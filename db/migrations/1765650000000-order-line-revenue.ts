import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revenue recognition per sales-order line: `order_line_revenue` holds each line's cumulative
 * units shipped (less returned) and billed (invoiced or imported, less voided), the counters the
 * recognition rule reads under a row lock; `revenue_recognitions` records what each document
 * (package, return receipt, invoice, import) moved on each line, so a void reverses exactly its
 * invoice's units. Existing orders are backfilled: units shipped from their packages, units
 * billed from their issued invoices and storefront imports.
 */
export class OrderLineRevenue1765650000000 implements MigrationInterface {
  name = 'OrderLineRevenue1765650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE order_line_revenue (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        order_id uuid NOT NULL,
        shipped numeric(19,4) NOT NULL DEFAULT 0,
        billed numeric(19,4) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE INDEX order_line_revenue_order ON order_line_revenue (entity_id, livemode, order_id)`,
    );
    await q.query(`
      CREATE TABLE revenue_recognitions (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        order_id uuid NOT NULL,
        order_line_id uuid NOT NULL,
        document_id uuid NOT NULL,
        shipped numeric(19,4) NOT NULL DEFAULT 0,
        billed numeric(19,4) NOT NULL DEFAULT 0,
        net numeric(19,4) NOT NULL DEFAULT 0,
        tax numeric(19,4) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE INDEX revenue_recognitions_document ON revenue_recognitions (entity_id, livemode, document_id)`,
    );
    // Backfill: units shipped (less returned) per sales-order line.
    await q.query(`
      INSERT INTO order_line_revenue (id, entity_id, livemode, order_id, shipped, billed)
      SELECT l.id, l.entity_id, l.livemode, l.order_id,
             COALESCE((SELECT sum(i.quantity - i.returned_quantity) FROM package_items i
                         JOIN packages p ON p.id = i.package_id
                        WHERE i.order_item_id = l.id AND p.status IN ('shipped', 'delivered', 'returned')), 0),
             CASE WHEN EXISTS (SELECT 1 FROM integration_imports m WHERE m.resource_id = o.id AND m.kind = 'order')
                    OR EXISTS (SELECT 1 FROM orders inv WHERE inv.id = o.converted_to_id
                                 AND inv.document_type = 'invoice'
                                 AND inv.order_status IN ('confirmed', 'fulfilled', 'closed'))
                  THEN l.quantity ELSE 0 END
        FROM order_lines l JOIN orders o ON o.id = l.order_id
       WHERE o.document_type = 'sales_order' AND o.order_status <> 'draft'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE revenue_recognitions`);
    await q.query(`DROP TABLE order_line_revenue`);
  }
}
