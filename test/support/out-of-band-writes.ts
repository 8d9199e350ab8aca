import { EntityProfileCache } from '#platform/tenancy/entity-profile.cache';
import { waitFor } from './eventually';
import type { TestApp } from './test-app';

/**
 * Writes made behind the app's back, as another writer of the database would (a migration, a
 * manual fix, another service): no service of the app sees them, so whatever the app keeps in
 * memory can only learn of them from the database's own notifications. They are SQL because
 * going through the API would tell the app directly, which is what the callers test it without.
 */

/** Makes a product serial-tracked. */
export async function makeProductSerialTracked(app: TestApp, productId: string): Promise<void> {
  await app.db.query('UPDATE products SET serial_tracked = true WHERE id = $1', [productId]);
}

/**
 * Deletes a location and the stock held there (its ledger rows, with the append-only guard
 * triggers off for the moment, then its balances): no route deletes a location that held stock.
 */
export async function deleteLocationWithItsStock(app: TestApp, locationId: string): Promise<void> {
  await app.db.query(`ALTER TABLE inventory_transactions DISABLE TRIGGER USER`);
  try {
    await app.db.query('DELETE FROM inventory_transactions WHERE location_id = $1', [locationId]);
  } finally {
    await app.db.query(`ALTER TABLE inventory_transactions ENABLE TRIGGER USER`);
  }
  await app.db.query('DELETE FROM inventory_balances WHERE location_id = $1', [locationId]);
  await app.db.query('DELETE FROM locations WHERE id = $1', [locationId]);
}

/**
 * Changes an entity's time zone (no route changes it), and waits until the app's profile cache
 * no longer holds the old one (its notification arrives just after the commit).
 */
export async function setEntityTimezone(app: TestApp, entityId: string, timezone: string): Promise<void> {
  await app.db.query('UPDATE entities SET timezone = $2 WHERE id = $1', [entityId, timezone]);
  const cache = app.get(EntityProfileCache);
  await waitFor(
    () => {
      const held = cache.get(entityId);
      return held === undefined || held.timezone === timezone;
    },
    { label: `the entity profile cache to forget entity ${entityId}` },
  );
}

/**
 * The writes of the products table the stock-facts notification trigger must tell apart, each in
 * its own transaction: the demand recorder's (the average, version and updated_at, one product
 * or many in one set-based statement), the average alone, and changes of facts a movement keeps.
 */
export const productWrites = (app: TestApp) => ({
  /** What the demand recorder writes on a shipment, for one product. */
  async recordDemandAverage(productId: string, average: number): Promise<void> {
    await app.db.query(
      `UPDATE products SET demand_avg_per_day = $2, version = version + 1, updated_at = now() WHERE id = $1`,
      [productId, average],
    );
  },
  /** The same for several products in one statement, as the recorder does after a batch. */
  async recordDemandAverages(averages: [productId: string, average: number][]): Promise<void> {
    await app.db.query(
      `UPDATE products p SET demand_avg_per_day = u.v, version = p.version + 1, updated_at = now()
         FROM unnest($1::uuid[], $2::numeric[]) AS u(id, v) WHERE p.id = u.id`,
      [averages.map(([id]) => id), averages.map(([, v]) => String(v))],
    );
  },
  /** The average alone, nothing else. */
  async setDemandAverageOnly(productId: string, average: number): Promise<void> {
    await app.db.query(`UPDATE products SET demand_avg_per_day = $2 WHERE id = $1`, [productId, average]);
  },
  async rename(productId: string, suffix: string): Promise<void> {
    await app.db.query(`UPDATE products SET name = name || $2 WHERE id = $1`, [productId, suffix]);
  },
  /** A change of the product's type together with the recorder's columns. */
  async changeTypeWithDemandAverage(productId: string, type: string, average: number): Promise<void> {
    await app.db.query(
      `UPDATE products SET type = $2, demand_avg_per_day = $3, version = version + 1 WHERE id = $1`,
      [productId, type, average],
    );
  },
});

/** The payloads heard on a NOTIFY channel from now on, until `stop()`. */
export async function listenTo(app: TestApp, channel: string) {
  const listener = await app.db.connect();
  const heard: string[] = [];
  listener.on('notification', (n) => {
    if (n.channel === channel) heard.push(n.payload ?? '');
  });
  try {
    await listener.query(`LISTEN ${channel}`);
  } catch (error) {
    listener.release();
    throw error;
  }
  return {
    heard,
    async stop() {
      try {
        await listener.query(`UNLISTEN ${channel}`);
      } finally {
        listener.release();
      }
    },
  };
}
