import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stock facts an instance keeps per entity include where order lines commit stock (the
 * inventory settings' default location, else the oldest location). Any write of an inventory
 * settings row, whichever code or script runs it, now sends `inventory_stock_facts` with the
 * entity's id, as changes of products, variants, locations and entities already do. A new
 * location needs no notification: its id is newer than every existing one, so it never becomes
 * the oldest, and an entity without locations has no commit location to keep.
 */
export class InventorySettingsStockFactsNotify1765480000000 implements MigrationInterface {
  name = 'InventorySettingsStockFactsNotify1765480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION inventory_settings_stock_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('inventory_stock_facts', e::text) FROM (SELECT DISTINCT entity_id AS e FROM changed) c;
        RETURN NULL;
      END $$`);
    for (const [event, table] of [
      ['INSERT', 'NEW'],
      ['UPDATE', 'OLD'],
      ['DELETE', 'OLD'],
    ]) {
      await q.query(`
        CREATE TRIGGER inventory_settings_stock_facts_${event.toLowerCase()} AFTER ${event} ON inventory_settings
        REFERENCING ${table} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_settings_stock_facts_changed()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete'])
      await q.query(`DROP TRIGGER IF EXISTS inventory_settings_stock_facts_${event} ON inventory_settings`);
    await q.query(`DROP FUNCTION IF EXISTS inventory_settings_stock_facts_changed()`);
  }
}
