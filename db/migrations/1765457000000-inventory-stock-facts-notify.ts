import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stock movements keep what they read of other contexts (a product's type and serial tracking,
 * its variants, the locations, the entity's time zone) in a per-instance cache. Any UPDATE or
 * DELETE of those rows, whichever code or script runs it, sends `inventory_stock_facts` with the
 * entity's id; PostgreSQL delivers it at commit and every instance forgets that entity's facts.
 * One notification per statement and entity (statement triggers over the changed rows).
 */
const WATCHED = [
  { table: 'products', entity: 'entity_id' },
  { table: 'product_variants', entity: 'entity_id' },
  { table: 'locations', entity: 'entity_id' },
  { table: 'entities', entity: 'id' },
];

export class InventoryStockFactsNotify1765457000000 implements MigrationInterface {
  name = 'InventoryStockFactsNotify1765457000000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, entity } of WATCHED) {
      await q.query(`
        CREATE FUNCTION ${table}_stock_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('inventory_stock_facts', e::text) FROM (SELECT DISTINCT ${entity} AS e FROM changed) c;
          RETURN NULL;
        END $$`);
      for (const event of ['UPDATE', 'DELETE']) {
        await q.query(`
          CREATE TRIGGER ${table}_stock_facts_${event.toLowerCase()} AFTER ${event} ON ${table}
          REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${table}_stock_facts_changed()`);
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of WATCHED) {
      await q.query(`DROP TRIGGER IF EXISTS ${table}_stock_facts_update ON ${table}`);
      await q.query(`DROP TRIGGER IF EXISTS ${table}_stock_facts_delete ON ${table}`);
      await q.query(`DROP FUNCTION IF EXISTS ${table}_stock_facts_changed()`);
    }
  }
}
