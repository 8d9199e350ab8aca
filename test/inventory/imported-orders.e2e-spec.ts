import { INestApplicationContext } from '@nestjs/common';
import { api } from '../support/http';
import { startDispatcher } from '../support/dispatcher';
import { LONG_WAIT, waitFor } from '../support/eventually';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf } from './support';

describe('inventory: orders confirmed by the bulk importer', () => {
  let app: TestApp;
  let worker: INestApplicationContext;
  let live: Client;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    worker = await startDispatcher(app);
  });
  afterAll(async () => {
    await worker?.close();
    await app.close();
  });

  it('allocates stock for an imported confirmed sales order, as for one confirmed through the API', async () => {
    const { productId, locationId } = fixturesOf(app);
    const balance = async () =>
      (await live.get(`/v1/inventory/balances?product_id=${productId}&location_id=${locationId}`).expect(200))
        .body.data[0];
    const before = await balance();
    const migration = api(app, app.seed.entities.primary.keys.migration);
    const base = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    const created = await migration
      .post(base)
      .send({
        resource: 'orders',
        records: [
          {
            external_id: 'INV-SO-1',
            account_id: app.seed.fixtures.account_id,
            status: 'confirmed',
            lines: [{ product_id: productId, quantity: 7 }],
          },
        ],
      })
      .expect(201);
    const done = await waitFor(async () => {
      const res = await migration.get(`${base}/${created.body.id}`).expect(200);
      return res.body.status === 'completed' && res.body;
    }, LONG_WAIT);
    expect(done.status).toBe('completed');
    expect((await balance()).allocated).toBe(before.allocated + 7);
  });
});
