import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns the demand recorder writes on every shipment; none of them is a stock fact. */
const DEMAND_ONLY = `ARRAY['demand_avg_per_day', 'version', 'updated_at']`;

/**
 * An UPDATE of products that changes nothing but demand_avg_per_day (with the version and
 * updated_at every write bumps) no longer sends `inventory_stock_facts`: stock movements keep
 * nothing of that column, and every shipment writes it, so each one made every instance forget
 * the entity's stock facts. Any other change of a row (matched to its old version by id; a row
 * without a match counts as changed) still notifies the entity of the old and of the new row.
 * The DELETE trigger is unchanged.
 */
export class ProductsDemandUpdateKeepsStockFacts1765460000000 implements MigrationInterface {
  name = 'ProductsDemandUpdateKeepsStockFacts1765460000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION products_stock_facts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('inventory_stock_facts', e::text) FROM (
          SELECT DISTINCT v.e
            FROM old_rows o
            FULL JOIN new_rows n ON n.id = o.id
            CROSS JOIN LATERAL (VALUES (o.entity_id), (n.entity_id)) AS v(e)
           WHERE v.e IS NOT NULL
             AND (to_jsonb(o) - ${DEMAND_ONLY}) IS DISTINCT FROM (to_jsonb(n) - ${DEMAND_ONLY})
        ) c;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER products_stock_facts_update ON products`);
    await q.query(`
      CREATE TRIGGER products_stock_facts_update AFTER UPDATE ON products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION products_stock_facts_updated()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER products_stock_facts_update ON products`);
    await q.query(`DROP FUNCTION products_stock_facts_updated()`);
    await q.query(`
      CREATE TRIGGER products_stock_facts_update AFTER UPDATE ON products
      REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION products_stock_facts_changed()`);
  }
}
