import { eventually } from '../support/eventually';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, newLocation, newProduct } from './support';

/**
 * Stock movements keep what they read of products, locations and the entity in memory; a change
 * of those rows by any writer (here plain SQL, which no service sees) must reach them through the
 * database's notification, within moments of its commit.
 */
describe('inventory: the stock facts a movement keeps follow the rows they came from', () => {
  let app: TestApp;
  let live: Client;
  let locationId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    locationId = fixturesOf(app).locationId;
  });
  afterAll(() => app.close());

  const adjust = (body: Record<string, unknown>) => live.post('/v1/inventory/adjustments').send(body);

  it('a product made serial-tracked by another writer refuses moves without serials', async () => {
    const productId = await newProduct(live);
    const body = {
      product_id: productId,
      location_id: locationId,
      quantity: 1,
      unit_cost: 2,
      reason: 'count',
    };
    await adjust(body).expect(201);
    await adjust(body).expect(201);
    await app.db.query('UPDATE products SET serial_tracked = true WHERE id = $1', [productId]);
    let last = await adjust(body);
    expect(await eventually(async () => (last = await adjust(body)).status === 400, 5000)).toBe(true);
    expectError(last, 400, 'parameter_invalid', { param: 'serial_numbers' });
  });

  it('a deleted location is refused again', async () => {
    const productId = await newProduct(live);
    const gone = await newLocation(live);
    const body = { product_id: productId, location_id: gone, quantity: 1, unit_cost: 2, reason: 'count' };
    await adjust(body).expect(201);
    // The balance and its row hold the location; without them the location row can go.
    await app.db.query(`ALTER TABLE inventory_transactions DISABLE TRIGGER USER`);
    await app.db.query('DELETE FROM inventory_transactions WHERE location_id = $1', [gone]);
    await app.db.query(`ALTER TABLE inventory_transactions ENABLE TRIGGER USER`);
    await app.db.query('DELETE FROM inventory_balances WHERE location_id = $1', [gone]);
    await app.db.query('DELETE FROM locations WHERE id = $1', [gone]);
    let last = await adjust(body);
    expect(await eventually(async () => (last = await adjust(body)).status === 400, 5000)).toBe(true);
    expectError(last, 400, 'parameter_invalid', { param: 'location_id' });
  });

  it("postings follow a change of the entity's time zone", async () => {
    const productId = await newProduct(live);
    const body = {
      product_id: productId,
      location_id: locationId,
      quantity: 1,
      unit_cost: 2,
      reason: 'count',
    };
    const entryDate = async (): Promise<string> => {
      const res = await adjust(body).expect(201);
      const entry = await live.get(`/v1/journal-entries/${res.body.journal_entry_id}`).expect(200);
      return entry.body.entry_date as string;
    };
    const day = (timezone: string) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: timezone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(new Date());
    const entityId = app.seed.entities.primary.id;
    const { rows } = await app.db.query('SELECT timezone FROM entities WHERE id = $1', [entityId]);
    const before = rows[0].timezone as string;
    // A zone whose date differs from the current one now (UTC+14 or UTC-11).
    const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => day(z) !== day(before))!;
    expect(await entryDate()).toBe(day(before));
    await app.db.query('UPDATE entities SET timezone = $2 WHERE id = $1', [entityId, zone]);
    try {
      expect(await eventually(async () => (await entryDate()) === day(zone), 5000)).toBe(true);
    } finally {
      await app.db.query('UPDATE entities SET timezone = $2 WHERE id = $1', [entityId, before]);
    }
  });
  it('a products UPDATE of the demand average alone sends no notification; any other change does', async () => {
    const productId = await newProduct(live);
    const entityId = app.seed.entities.primary.id;
    const listener = await app.db.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => {
      if (n.channel === 'inventory_stock_facts') heard.push(n.payload ?? '');
    });
    try {
      await listener.query('LISTEN inventory_stock_facts');
      // What the demand recorder writes on every shipment: the average, version and updated_at.
      await app.db.query(
        `UPDATE products SET demand_avg_per_day = 1.25, version = version + 1, updated_at = now() WHERE id = $1`,
        [productId],
      );
      await app.db.query(
        `UPDATE products p SET demand_avg_per_day = u.v, version = p.version + 1, updated_at = now()
           FROM unnest($1::uuid[], $2::numeric[]) AS u(id, v) WHERE p.id = u.id`,
        [
          [productId, fixturesOf(app).productId],
          ['0.5', '0.75'],
        ],
      );
      await app.db.query(`UPDATE products SET demand_avg_per_day = 0 WHERE id = $1`, [productId]);
      // Notifications arrive in commit order: the first one heard is the rename's.
      await app.db.query(`UPDATE products SET name = name || ' (renamed)' WHERE id = $1`, [productId]);
      expect(await eventually(async () => heard.length > 0, 5000)).toBe(true);
      expect(heard).toEqual([entityId]);
      await app.db.query(
        `UPDATE products SET type = 'service', demand_avg_per_day = 2, version = version + 1 WHERE id = $1`,
        [productId],
      );
      expect(await eventually(async () => heard.length > 1, 5000)).toBe(true);
      expect(heard).toEqual([entityId, entityId]);
    } finally {
      await listener.query('UNLISTEN inventory_stock_facts');
      listener.release();
    }
  });
});
