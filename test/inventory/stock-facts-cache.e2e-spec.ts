import { eventually } from '../support/eventually';
import { api, expectError } from '../support/http';
import {
  deleteLocationWithItsStock,
  listenTo,
  makeProductSerialTracked,
  productWrites,
  setEntityTimezone,
} from '../support/out-of-band-writes';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, newLocation, newProduct } from './support';

/**
 * Stock movements keep what they read of products, locations and the entity in memory; a change
 * of those rows by any writer (here plain SQL, which no service sees: test/support/out-of-band-writes.ts) must reach them through the
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
    await makeProductSerialTracked(app, productId);
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
    await deleteLocationWithItsStock(app, gone);
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
    const before = (await live.get('/v1/accounting/settings').expect(200)).body.timezone as string;
    // A zone whose date differs from the current one now (UTC+14 or UTC-11).
    const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => day(z) !== day(before))!;
    expect(await entryDate()).toBe(day(before));
    await setEntityTimezone(app, entityId, zone);
    try {
      expect(await eventually(async () => (await entryDate()) === day(zone), 5000)).toBe(true);
    } finally {
      await setEntityTimezone(app, entityId, before);
    }
  });
  it('a products UPDATE of the demand average alone sends no notification; any other change does', async () => {
    const productId = await newProduct(live);
    const entityId = app.seed.entities.primary.id;
    const products = productWrites(app);
    const listener = await listenTo(app, 'inventory_stock_facts');
    const { heard } = listener;
    try {
      // What the demand recorder writes on every shipment: the average, version and updated_at.
      await products.recordDemandAverage(productId, 1.25);
      await products.recordDemandAverages([
        [productId, 0.5],
        [fixturesOf(app).productId, 0.75],
      ]);
      await products.setDemandAverageOnly(productId, 0);
      // Notifications arrive in commit order: the first one heard is the rename's.
      await products.rename(productId, ' (renamed)');
      expect(await eventually(async () => heard.length > 0, 5000)).toBe(true);
      expect(heard).toEqual([entityId]);
      await products.changeTypeWithDemandAverage(productId, 'service', 2);
      expect(await eventually(async () => heard.length > 1, 5000)).toBe(true);
      expect(heard).toEqual([entityId, entityId]);
    } finally {
      await listener.stop();
    }
  });
});
