import type { INestApplicationContext } from '@nestjs/common';
import { startDispatcher } from '../support/dispatcher';
import { eventually } from '../support/eventually';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, insertLostShipmentNotification } from './support';

/** The QA seed's fulfillment fixtures, and shipment notifications delivered by the dispatcher app. */
describe('fulfillment seed and shipment notifications', () => {
  let app: TestApp;
  let live: Client;
  let dispatcher: INestApplicationContext | undefined;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(async () => {
    await dispatcher?.close();
    await app.close();
  });

  it('seeds shipped_package_id: shipped with a bought sandbox label and insurance from the product toggle', async () => {
    const id = app.seed.fixtures.shipped_package_id as string;
    const pkg = (await live.get(`/v1/packages/${id}`).expect(200)).body;
    expect(pkg).toMatchObject({
      status: 'shipped',
      carrier: 'usps',
      service_level: 'priority',
      label: { provider: 'sandbox', file_type: 'PDF' },
      insurance: { active: true, bought: true, source: 'product_toggle', provider: 'USPS' },
    });
    await live
      .get(`/v1/packages/${id}/label`)
      .expect(200)
      .expect('Content-Type', /application\/pdf/);
    const settings = (await live.get('/v1/fulfillment/settings').expect(200)).body;
    expect(settings.insurance_threshold).toBeNull();
    // sales_order stays unpacked.
    const { salesOrder } = fixturesOf(app);
    expect((await live.get(`/v1/packages?order_id=${salesOrder.id}`).expect(200)).body.data).toEqual([]);
  });

  it('queues a notification with the shipment that the dispatcher delivers through the sandbox notifier', async () => {
    const { salesOrder } = fixturesOf(app);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: salesOrder.id, items: [{ order_item_id: salesOrder.items[0].id, quantity: 1 }] })
        .expect(201)
    ).body;
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'usps', tracking_number: '9400TEST' })
      .expect(200);
    const queued = (await live.get(`/v1/packages/${pkg.id}/notifications`).expect(200)).body.data;
    expect(queued).toEqual([
      expect.objectContaining({ status: 'queued', recipient: 'buyer@qa-customer.example', sent_at: null }),
    ]);
    expect(queued[0].body).toContain('9400TEST');
    dispatcher = await startDispatcher(app);
    const sent = async () =>
      (await live.get(`/v1/packages/${pkg.id}/notifications`).expect(200)).body.data[0].status === 'sent';
    expect(await eventually(sent, 20_000, 100)).toBe(true);
    const [delivered] = (await live.get(`/v1/packages/${pkg.id}/notifications`).expect(200)).body.data;
    expect(delivered).toMatchObject({ channel: 'sandbox', status: 'sent' });
    expect(delivered.sent_at).not.toBeNull();
  });

  it('delivers a notification whose job was lost, through the sweeper', async () => {
    await dispatcher?.close();
    dispatcher = undefined;
    const pkg = (await live.get(`/v1/packages/${app.seed.fixtures.shipped_package_id as string}`).expect(200))
      .body;
    // A queued notification whose job never reached the queue (the process stopped between the
    // commit and the enqueue).
    const lostId = await insertLostShipmentNotification(app, pkg);
    const status = async () =>
      (await live.get(`/v1/packages/${pkg.id}/notifications`).expect(200)).body.data.find(
        (n: { id: string }) => n.id === lostId,
      ).status as string;
    expect(await status()).toBe('queued');

    dispatcher = await startDispatcher(app, { SHIPMENT_NOTIFICATION_SWEEP_MS: 300 });
    expect(await eventually(async () => (await status()) === 'sent', 20_000, 100)).toBe(true);
  });
});
