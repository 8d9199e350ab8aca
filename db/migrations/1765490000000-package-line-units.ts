import { MigrationInterface, QueryRunner } from 'typeorm';

/** The summary's key columns, in the order every upsert locks its rows (concurrent writers never deadlock). */
const KEY = 'entity_id, livemode, order_id, order_item_id, status';

/** Adds the (key, units) rows of `source` to the summary, creating the rows it lacks. */
const upsert = (source: string) => `
  INSERT INTO package_line_units AS u (${KEY}, units)
  SELECT ${KEY}, sum(units) FROM (${source}) d GROUP BY ${KEY} ORDER BY ${KEY}
  ON CONFLICT (${KEY}) DO UPDATE SET units = u.units + EXCLUDED.units`;

/** A trigger function adding the rows of `source` to the summary, then returning `returns`. */
const unitsFunction = (name: string, source: string, returns = 'NULL') => `
  CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${upsert(source)};
    RETURN ${returns};
  END $$`;

/**
 * Units of each order line per package status, kept by triggers on `packages` and
 * `package_items` in the transaction of every write of them, whichever code writes: what
 * `POST /packages`, shipping, voiding and returns read behind the order's lock (the order's
 * lines times the statuses in use) instead of summing every item of every package of the order.
 * Zero rows are kept. Rows of a deleted entity go with it; a package deleted on its own gives
 * its units back before its items go.
 */
export class PackageLineUnits1765490000000 implements MigrationInterface {
  name = 'PackageLineUnits1765490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE package_line_units (
        entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        livemode boolean NOT NULL,
        order_id uuid NOT NULL,
        order_item_id uuid NOT NULL,
        status text NOT NULL,
        units bigint NOT NULL,
        PRIMARY KEY (${KEY})
      )`);
    await q.query(`
      INSERT INTO package_line_units (${KEY}, units)
      SELECT i.entity_id, i.livemode, i.order_id, i.order_item_id, p.status, sum(i.quantity)
        FROM package_items i JOIN packages p ON p.id = i.package_id
       GROUP BY i.entity_id, i.livemode, i.order_id, i.order_item_id, p.status`);

    // Items added, removed or changed (their package's status at the time).
    await q.query(
      unitsFunction(
        'package_items_units_added',
        `SELECT i.entity_id, i.livemode, i.order_id, i.order_item_id, p.status, i.quantity AS units
                    FROM added i JOIN packages p ON p.id = i.package_id`,
      ),
    );
    // An item removed with its package or its entity was counted off already (or goes with it).
    await q.query(
      unitsFunction(
        'package_items_units_removed',
        `SELECT i.entity_id, i.livemode, i.order_id, i.order_item_id, p.status, -i.quantity AS units
                    FROM removed i JOIN packages p ON p.id = i.package_id JOIN entities e ON e.id = i.entity_id`,
      ),
    );
    await q.query(
      unitsFunction(
        'package_items_units_changed',
        `SELECT o.entity_id, o.livemode, o.order_id, o.order_item_id, p.status, -o.quantity AS units
                    FROM before_rows o JOIN after_rows n ON n.id = o.id JOIN packages p ON p.id = o.package_id
                   WHERE (o.quantity, o.order_item_id, o.order_id, o.package_id)
                         IS DISTINCT FROM (n.quantity, n.order_item_id, n.order_id, n.package_id)
                  UNION ALL
                  SELECT n.entity_id, n.livemode, n.order_id, n.order_item_id, p.status, n.quantity
                    FROM before_rows o JOIN after_rows n ON n.id = o.id JOIN packages p ON p.id = n.package_id
                   WHERE (o.quantity, o.order_item_id, o.order_id, o.package_id)
                         IS DISTINCT FROM (n.quantity, n.order_item_id, n.order_id, n.package_id)`,
      ),
    );
    // A package's status change moves its items' units from the old status to the new one.
    await q.query(
      unitsFunction(
        'packages_units_moved',
        `SELECT i.entity_id, i.livemode, i.order_id, i.order_item_id, m.status, m.sign * i.quantity AS units
                    FROM (SELECT o.id, o.status, -1 AS sign FROM before_rows o JOIN after_rows n ON n.id = o.id
                           WHERE o.status <> n.status
                          UNION ALL
                          SELECT n.id, n.status, 1 FROM before_rows o JOIN after_rows n ON n.id = o.id
                           WHERE o.status <> n.status) m
                    JOIN package_items i ON i.package_id = m.id`,
      ),
    );
    await q.query(
      unitsFunction(
        'packages_units_deleted',
        `SELECT i.entity_id, i.livemode, i.order_id, i.order_item_id, OLD.status AS status, -i.quantity AS units
                    FROM package_items i JOIN entities e ON e.id = i.entity_id WHERE i.package_id = OLD.id`,
        'OLD',
      ),
    );

    await q.query(`
      CREATE TRIGGER package_items_units_insert AFTER INSERT ON package_items
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION package_items_units_added()`);
    await q.query(`
      CREATE TRIGGER package_items_units_delete AFTER DELETE ON package_items
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION package_items_units_removed()`);
    await q.query(`
      CREATE TRIGGER package_items_units_update AFTER UPDATE ON package_items
      REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
      FOR EACH STATEMENT EXECUTE FUNCTION package_items_units_changed()`);
    await q.query(`
      CREATE TRIGGER packages_units_update AFTER UPDATE ON packages
      REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
      FOR EACH STATEMENT EXECUTE FUNCTION packages_units_moved()`);
    await q.query(`
      CREATE TRIGGER packages_units_delete BEFORE DELETE ON packages
      FOR EACH ROW EXECUTE FUNCTION packages_units_deleted()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS packages_units_delete ON packages`);
    await q.query(`DROP TRIGGER IF EXISTS packages_units_update ON packages`);
    await q.query(`DROP TRIGGER IF EXISTS package_items_units_update ON package_items`);
    await q.query(`DROP TRIGGER IF EXISTS package_items_units_delete ON package_items`);
    await q.query(`DROP TRIGGER IF EXISTS package_items_units_insert ON package_items`);
    for (const fn of [
      'packages_units_deleted',
      'packages_units_moved',
      'package_items_units_changed',
      'package_items_units_removed',
      'package_items_units_added',
    ])
      await q.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    await q.query(`DROP TABLE IF EXISTS package_line_units`);
  }
}
