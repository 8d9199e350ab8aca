import type { Response } from 'superagent';
import { inflateSync } from 'node:zlib';
import { DemandAverageRefresher } from '#contexts/replenishment';
import { eventually } from '../support/eventually';
import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, entriesOf, fixturesOf, later, newProduct, stock } from './support';

/** Collects a binary response body into a Buffer (supertest's parser hook). */
const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('package rules', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
  });
  afterAll(() => app.close());

  const keyWith = async (scopes: string[]) =>
    api(
      app,
      (
        await live
          .post(`/v1/entities/${app.seed.entities.primary.id}/api_keys`)
          .send({ name: `scoped ${scopes.join(' ')}`, mode: 'live', scopes })
          .expect(201)
      ).body.secret as string,
    );
  const widgetOrder = (quantity = 3) =>
    confirmedOrder(live, fx.accountId, [{ product_id: fx.productId, quantity }]);
  const newPackage = async (orderId: string, body: Record<string, unknown> = {}, client: Client = live) =>
    (
      await client
        .post('/v1/packages')
        .send({ order_id: orderId, weight: 2, ...body })
        .expect(201)
    ).body;
  const rateOf = async (packageId: string, carrier: string, service: string) => {
    const rates = (await live.get(`/v1/packages/${packageId}/rates`).expect(200)).body.data as {
      carrier: string;
      service_level: string;
      rate_object_id: string;
      amount: number;
      insurance_fee: number;
    }[];
    return rates.find((r) => r.carrier === carrier && r.service_level === service)!;
  };

  it('needs rate_object_id with buy_label and knows the carrier_service codes', async () => {
    const order = await widgetOrder();
    expectError(
      await live.post('/v1/packages').send({ order_id: order.id, buy_label: true }),
      400,
      'parameter_missing',
      { param: 'rate_object_id' },
    );
    expectError(
      await live.post('/v1/packages').send({ order_id: order.id, carrier_service: 'dhl_express' }),
      400,
      'parameter_invalid',
      { param: 'carrier_service' },
    );
    const pkg = await newPackage(order.id, { carrier_service: 'ups_2nd_day_air' });
    expect(pkg).toMatchObject({ carrier: 'ups', service_level: '2nd_day_air' });
    expectError(
      await live.post('/v1/packages').send({ order_id: order.id, unknown: 1 }),
      400,
      'parameter_unknown',
    );
  });

  it('keeps the package and answers 422 label_purchase_failed with it when the carrier refuses', async () => {
    const order = await widgetOrder();
    const first = await newPackage(order.id, {
      weight: 80,
      items: [{ order_item_id: order.items[0].id, quantity: 1 }],
    });
    const usps = await rateOf(first.id, 'usps', 'priority');
    const res = await live.post('/v1/packages').send({
      order_id: order.id,
      weight: 80,
      items: [{ order_item_id: order.items[0].id, quantity: 1 }],
      buy_label: true,
      rate_object_id: usps.rate_object_id,
      fulfill_after_label: true,
    });
    expectError(res, 422, 'label_purchase_failed');
    expect(res.body.hint).toContain('70 lb');
    expect(res.body.package).toMatchObject({
      object: 'package',
      status: 'packing',
      label: null,
      tracking_number: null,
    });
    expect((await live.get(`/v1/packages/${res.body.package.id}`).expect(200)).body.status).toBe('packing');
    const buy = await live
      .post(`/v1/packages/${first.id}/buy-label`)
      .send({ rate_object_id: 'rate_unknown' });
    expectError(buy, 422, 'label_purchase_failed');
    expect(buy.body.package.id).toBe(first.id);
    // Rates are valid 24 h (SHIPPING_RATE_TTL_HOURS).
    const expired = await later(25, () =>
      live.post(`/v1/packages/${first.id}/buy-label`).send({ rate_object_id: usps.rate_object_id }),
    );
    expectError(expired, 422, 'label_purchase_failed');
    expect(expired.body.hint).toContain('expired');
  });

  it('buys PNG and ZPL II labels served as real files with the tracking number as a barcode', async () => {
    const order = await widgetOrder(4);
    const labels: Record<
      string,
      { id: string; body: Buffer; etag: string; tracking: string; number: string }
    > = {};
    for (const [type, contentType] of [
      ['PNG', 'image/png'],
      ['ZPLII', 'application/zpl'],
      ['PDF', 'application/pdf'],
    ]) {
      const pkg = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
      const rate = await rateOf(pkg.id, 'ups', 'ground');
      const bought = await live
        .post(`/v1/packages/${pkg.id}/buy-label`)
        .send({ rate_object_id: rate.rate_object_id, label_file_type: type })
        .expect(200);
      expect(bought.body).toMatchObject({ status: 'labeled', carrier: 'ups', label: { file_type: type } });
      const file = await live.get(`/v1/packages/${pkg.id}/label`).buffer(true).parse(binary).expect(200);
      expect(file.headers['content-type']).toContain(contentType);
      labels[type] = {
        id: pkg.id,
        body: file.body as Buffer,
        etag: file.headers.etag,
        tracking: bought.body.tracking_number,
        number: bought.body.package_number,
      };
    }

    const png = labels.PNG.body;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // 4 x 6 inch at 203 dpi, 8-bit grayscale: each row is a filter byte and one byte a pixel.
    expect(png.readUInt32BE(16)).toBe(812);
    expect(png.readUInt32BE(20)).toBe(1218);
    const idat = png.indexOf('IDAT');
    expect(inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4))).length).toBe(
      813 * 1218,
    );

    const zplText = labels.ZPLII.body.toString('latin1').trim();
    expect(zplText.startsWith('^XA')).toBe(true);
    expect(zplText.endsWith('^XZ')).toBe(true);
    expect(zplText).toContain(`^BCN,250,Y,N,N,A^FD${labels.ZPLII.tracking}^FS`);
    expect(zplText).toContain(`^FDPackage ${labels.ZPLII.number}  Weight`);

    const pdf = labels.PDF.body.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain('/Type /Page ');
    expect(pdf).toContain(labels.PDF.tracking);
    expect(pdf).toContain(`(Package ${labels.PDF.number}  Weight`);
    // Drawn when served, the same bytes each time.
    const again = await live
      .get(`/v1/packages/${labels.PDF.id}/label`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect((again.body as Buffer).equals(labels.PDF.body)).toBe(true);
    expect(again.headers.etag).toBe(labels.PDF.etag);
    // A package created with its label shows the number it took as its transaction committed.
    const rate = await rateOf((await newPackage(order.id, { items: [] })).id, 'usps', 'priority');
    const created = await live
      .post('/v1/packages')
      .send({
        order_id: order.id,
        items: [{ order_item_id: order.items[0].id, quantity: 1 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        label_file_type: 'ZPLII',
      })
      .expect(201);
    expect(created.body.package_number).toMatch(/-PKG-\d{6}$/);
    const zpl = await live
      .get(`/v1/packages/${created.body.id}/label`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect((zpl.body as Buffer).toString('latin1')).toContain(
      `^FDPackage ${created.body.package_number}  Weight`,
    );
  });

  it('gates revised orders: 409, then skip_revision_ack or ?override=true only with orders:revision_override', async () => {
    const revised = fx.revisedOrder;
    expectError(
      await live.post('/v1/packages').send({ order_id: revised.id }),
      409,
      'revision_unacknowledged',
    );
    const limited = await keyWith(['fulfillment:write', 'fulfillment:read']);
    expectError(
      await limited.post('/v1/packages?override=true').send({ order_id: revised.id }),
      403,
      'insufficient_scope',
      { required: 'orders:revision_override' },
    );
    expectError(
      await limited.post('/v1/packages').send({ order_id: revised.id, skip_revision_ack: true }),
      403,
      'insufficient_scope',
      { required: 'orders:revision_override' },
    );
    const overrider = await keyWith(['fulfillment:write', 'orders:revision_override']);
    const viaQuery = (
      await overrider.post('/v1/packages?override=true').send({ order_id: revised.id }).expect(201)
    ).body;
    expect(viaQuery.revision_override).toMatchObject({ via: 'override_query' });
    const viaBody = await newPackage(revised.id, { skip_revision_ack: true });
    expect(viaBody.revision_override).toMatchObject({ via: 'skip_revision_ack' });
    // The activity log row of the overriding request names the package (written after the response).
    const logged = async () =>
      (
        (await live.get(`/v1/activity?resource_id=${viaBody.id}`).expect(200)).body.data as {
          path: string;
          status: number;
        }[]
      ).filter((a) => a.path === '/v1/packages' && a.status === 201).length === 1;
    expect(await eventually(logged, 5000)).toBe(true);
    await live.post(`/v1/orders/${revised.id}/customer-acknowledge-revision`).send({}).expect(200);
    expect((await newPackage(revised.id)).revision_override).toBeNull();
  });

  it('needs orders:write besides fulfillment:write for fulfill_after_label', async () => {
    const order = await widgetOrder();
    const fulfillmentOnly = await keyWith(['fulfillment:write', 'fulfillment:read']);
    expectError(
      await fulfillmentOnly.post('/v1/packages').send({ order_id: order.id, fulfill_after_label: true }),
      403,
      'insufficient_scope',
      { required: 'orders:write' },
    );
    await newPackage(
      order.id,
      { fulfill_after_label: true },
      await keyWith(['fulfillment:write', 'orders:write']),
    );
  });

  it('never over-packs a line under 20 concurrent creations, and numbers stay unique', async () => {
    const order = await widgetOrder(5);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        live
          .post('/v1/packages')
          .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1 }] }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(5);
    results.filter((r) => r.status !== 201).forEach((r) => expectError(r, 422, 'quantity_exceeds_remaining'));
    // Each creation takes its number before its transaction (the refused ones leave gaps), so
    // the numbers stay unique across every package of the entity.
    const packages = await listAll<{ id: string; package_number: string }>(live, '/v1/packages');
    const numbers = packages.map((p) => p.package_number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('checks serials: duplicates, allocation, then ships them as sold', async () => {
    const { serialOrder } = fx;
    const item = (serials: string[]) => ({
      order_item_id: serialOrder.item_id,
      quantity: serials.length,
      serial_numbers: serials,
    });
    expectError(
      await live.post('/v1/packages').send({
        order_id: serialOrder.id,
        items: [item([serialOrder.serials[0]]), item([serialOrder.serials[0]])],
      }),
      400,
      'parameter_invalid',
      { param: 'items[1].serial_numbers[0]' },
    );
    const notAllocated = await live
      .post('/v1/packages')
      .send({ order_id: serialOrder.id, items: [item(['QA-SN-0005'])] });
    expectError(notAllocated, 422, 'serial_not_allocated', { param: 'items[0].serial_numbers' });
    expect(notAllocated.body.hint).toContain('QA-SN-0005');
    expectError(
      await live
        .post('/v1/packages')
        .send({ order_id: serialOrder.id, items: [{ order_item_id: serialOrder.item_id, quantity: 1 }] }),
      400,
      'parameter_missing',
      { param: 'items[0].serial_numbers' },
    );
    const pkg = await newPackage(serialOrder.id, { items: [item(serialOrder.serials)] });
    const shipped = await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier_service: 'fedex_2_day', tracking_number: '999912345678' })
      .expect(200);
    expect(shipped.body).toMatchObject({ status: 'shipped', carrier: 'fedex', service_level: '2_day' });
    const serials = await live
      .get(`/v1/inventory/serials?product_id=${serialOrder.product_id}&status=sold`)
      .expect(200);
    expect(serials.body.data.map((s: { serial_number: string }) => s.serial_number).sort()).toEqual(
      [...serialOrder.serials].sort(),
    );
    const [entry] = await entriesOf(app, 'FULFILLMENT', pkg.id);
    const cogs = entry.lines.find((l) => l.role === 'cogs')!;
    expect(Number(cogs.debit)).toBe(160);
    expect((await live.get(`/v1/orders/${serialOrder.id}`).expect(200)).body.order_status).toBe('fulfilled');
  });

  it('ships at inventory cost and lowers the balance', async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 7.5);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: product, quantity: 4, unit_price: 20, tax_rate: 10 },
    ]);
    const pkg = await newPackage(order.id, { items: [{ product_id: product, quantity: 4 }] });
    await live.post(`/v1/packages/${pkg.id}/pack`).send({}).expect(200);
    await expectEvent(
      app,
      'fulfillment.package.updated',
      { id: pkg.id, status: 'packed', order_id: order.id },
      { previous: { status: 'packing' } },
    );
    const rate = await rateOf(pkg.id, 'usps', 'ground_advantage');
    await live
      .post(`/v1/packages/${pkg.id}/buy-label`)
      .send({ rate_object_id: rate.rate_object_id })
      .expect(200);
    const shipped = (await live.post(`/v1/packages/${pkg.id}/ship`).send({}).expect(200)).body;
    expect(shipped.items[0]).toMatchObject({ unit_cost: 7.5, quantity: 4 });
    const balance = (await live.get(`/v1/inventory/balances?product_id=${product}`).expect(200)).body;
    expect(balance.data[0]).toMatchObject({ on_hand: 6, allocated: 0 });
    const [entry] = await entriesOf(app, 'FULFILLMENT', pkg.id);
    const by = Object.fromEntries(entry.lines.map((l) => [l.role, l]));
    expect(Number(by.cogs.debit)).toBe(30);
    expect(Number(by.inventory.credit)).toBe(30);
    expect(Number(by.revenue.credit)).toBe(80);
    expect(Number(by.tax.credit)).toBe(8);
    expect(Number(by.unbilled_receivables.debit)).toBe(88);
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.order_status).toBe('fulfilled');
    const delivered = (await live.post(`/v1/packages/${pkg.id}/deliver`).send({}).expect(200)).body;
    expect(delivered.status).toBe('delivered');
    expect(delivered.delivered_at).not.toBeNull();
    await expectEvent(
      app,
      'fulfillment.delivered',
      { id: pkg.id, status: 'delivered', order_id: order.id, delivered_at: delivered.delivered_at },
      { previous: { status: 'shipped' } },
    );
    expectError(await live.post(`/v1/packages/${pkg.id}/void`).send({}), 409, 'invalid_state');
    expectError(await live.patch(`/v1/packages/${pkg.id}`).send({ weight: 3 }), 409, 'invalid_state');
    expectError(await live.post(`/v1/packages/${pkg.id}/pack`).send({}), 409, 'invalid_state');
  });

  it('answers 422 insufficient_stock when shipping more than is on hand, and moves nothing', async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 2, 5);
    const order = await confirmedOrder(live, fx.accountId, [{ product_id: product, quantity: 10 }]);
    const balanceOf = async () =>
      (await live.get(`/v1/inventory/balances?product_id=${product}`).expect(200)).body.data[0];
    const before = await balanceOf();
    const pkg = await newPackage(order.id, { items: [{ product_id: product, quantity: 5 }] });
    const refused = await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: '1ZSHORT0001' });
    expectError(refused, 422, 'insufficient_stock');
    expect(typeof refused.body.param).toBe('string');
    // fulfill_after_label refuses the same way, and the package it would have created is not kept.
    const rate = await rateOf(pkg.id, 'usps', 'ground_advantage');
    const count = async () => (await listAll(live, `/v1/packages?order_id=${order.id}`)).length;
    expect(await count()).toBe(1);
    expectError(
      await live.post('/v1/packages').send({
        order_id: order.id,
        weight: 2,
        items: [{ product_id: product, quantity: 5 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        fulfill_after_label: true,
      }),
      422,
      'insufficient_stock',
    );
    expect(await count()).toBe(1);
    expect((await live.get(`/v1/packages/${pkg.id}`).expect(200)).body.status).toBe('packing');
    expect(await balanceOf()).toMatchObject({ on_hand: before.on_hand, value: before.value });
    expect(await entriesOf(app, 'FULFILLMENT', pkg.id)).toEqual([]);
    // No demand was recorded: the product's average stays 0 once every refresh is done.
    await app.get(DemandAverageRefresher).settle();
    expect((await live.get(`/v1/products/${product}`).expect(200)).body.demand_avg_per_day).toBe(0);
  });

  it('answers 422 period_closed for fulfill_after_label in a closed period, and writes nothing of the package', async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 5, 4);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: product, quantity: 2, unit_price: 10 },
    ]);
    const quoted = await newPackage(order.id, { items: [] });
    const rate = await rateOf(quoted.id, 'usps', 'ground_advantage');
    const ship = () =>
      live.post('/v1/packages').send({
        order_id: order.id,
        weight: 2,
        items: [{ product_id: product, quantity: 1 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        fulfill_after_label: true,
      });
    const settingsBefore = (await live.get('/v1/fulfillment/settings').expect(200)).body;
    const period = (app.seed.fixtures.open_period as { id: string }).id;
    await live.post(`/v1/accounting/periods/${period}/close`).expect(200);
    try {
      expectError(await ship(), 422, 'period_closed');
    } finally {
      await live.post(`/v1/accounting/periods/${period}/reopen`).expect(200);
    }
    // Nothing of it stayed: no package, no stock moved (its number is a gap).
    const packages = await listAll<{ id: string }>(live, `/v1/packages?order_id=${order.id}`);
    expect(packages.map((p) => p.id)).toEqual([quoted.id]);
    const balance = (await live.get(`/v1/inventory/balances?product_id=${product}`).expect(200)).body;
    expect(balance.data[0]).toMatchObject({ on_hand: 5 });
    const settings = (await live.get('/v1/fulfillment/settings').expect(200)).body;
    expect(settings.last_package_number).toBe(settingsBefore.last_package_number + 1);
    // Open again, the same request ships with the number after the gap.
    const shipped = (await ship().expect(201)).body;
    expect(shipped.status).toBe('shipped');
    expect(Number(shipped.package_number.slice(-6))).toBe(settingsBefore.last_package_number + 2);
  });

  it('voids with a refunded label, or posts LABEL_REFUND_DENIED when the carrier refuses', async () => {
    const order = await widgetOrder(2);
    const a = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 2 }] });
    const usps = await rateOf(a.id, 'usps', 'priority');
    await live
      .post(`/v1/packages/${a.id}/buy-label`)
      .send({ rate_object_id: usps.rate_object_id })
      .expect(200);
    const voided = (await live.post(`/v1/packages/${a.id}/void`).send({}).expect(200)).body;
    expect(voided).toMatchObject({ status: 'void', label: { refund_status: 'refunded' } });
    await expectEvent(
      app,
      'fulfillment.package.voided',
      { id: a.id, status: 'void', order_id: order.id, label: { refund_status: 'refunded' } },
      { previous: { status: 'labeled' } },
    );
    expect(await entriesOf(app, 'LABEL_REFUND_DENIED', a.id)).toEqual([]);
    // The void package released its units.
    const b = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 2 }] });
    const fedex = await rateOf(b.id, 'fedex', 'ground');
    await live
      .post(`/v1/packages/${b.id}/buy-label`)
      .send({ rate_object_id: fedex.rate_object_id })
      .expect(200);
    const denied = (await live.post(`/v1/packages/${b.id}/void`).send({}).expect(200)).body;
    expect(denied.label.refund_status).toBe('rejected');
    const [entry] = await entriesOf(app, 'LABEL_REFUND_DENIED', b.id);
    expect(Number(entry.total_debit)).toBe(fedex.amount);
    expectError(await live.post(`/v1/packages/${b.id}/void`).send({}), 409, 'invalid_state');
  });

  it('updates while packing, fills dimensions from a box, filters lists', async () => {
    const box = await newProduct(live, {
      type: 'box',
      dimensions: { length: 30.48, width: 20.32, height: 10.16, unit: 'cm' },
    });
    const order = await widgetOrder();
    const pkg = await newPackage(order.id, { box_product_id: box });
    expect(pkg).toMatchObject({ length_in: 12, width_in: 8, height_in: 4 });
    expectError(
      await live.post('/v1/packages').send({ order_id: order.id, box_product_id: fx.productId }),
      400,
      'parameter_invalid',
      {
        param: 'box_product_id',
      },
    );
    const patched = (
      await live
        .patch(`/v1/packages/${pkg.id}`)
        .send({
          weight: 4,
          carrier_service: 'usps_priority',
          insurance_amount_override: 120,
          metadata: { bin: 'A1' },
        })
        .expect(200)
    ).body;
    await expectEvent(
      app,
      'fulfillment.package.updated',
      { id: pkg.id, status: 'packing', weight_lb: 4, carrier: 'usps', metadata: { bin: 'A1' } },
      { previous: { weight_lb: pkg.weight_lb, carrier: pkg.carrier } },
    );
    expect(patched).toMatchObject({
      weight_lb: 4,
      carrier: 'usps',
      service_level: 'priority',
      insurance: {
        source: 'manual_override',
        amount: 120,
        fee_estimate: 1.8,
        provider: 'USPS',
        bought: false,
      },
      metadata: { bin: 'A1' },
    });
    const rate = await rateOf(pkg.id, 'usps', 'priority');
    expect(rate.insurance_fee).toBe(1.8);
    const list = (await live.get(`/v1/packages?order_id=${order.id}&status=packing&carrier=usps`).expect(200))
      .body;
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([pkg.id]);
    expect(
      (await live.get(`/v1/packages?order_id=${order.id}&status=shipped`).expect(200)).body.data,
    ).toEqual([]);
    expectError(await live.get('/v1/packages?status=lost'), 400, 'parameter_invalid', { param: 'status' });
  });

  it('isolates packages by mode and entity', async () => {
    const order = await widgetOrder();
    const pkg = await newPackage(order.id);
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/packages/${pkg.id}`), 404, 'not_found');
      expectError(await client.patch(`/v1/packages/${pkg.id}`).send({ weight: 1 }), 404, 'not_found');
      expectError(await client.get(`/v1/packages/${pkg.id}/rates`), 404, 'not_found');
      expectError(await client.get(`/v1/packages/${pkg.id}/label`), 404, 'not_found');
      expectError(await client.get(`/v1/packages/${pkg.id}/notifications`), 404, 'not_found');
      for (const action of ['pack', 'ship', 'deliver', 'void', 'buy-label'])
        expectError(
          await client
            .post(`/v1/packages/${pkg.id}/${action}`)
            .send(action === 'buy-label' ? { rate_object_id: 'x' } : {}),
          404,
          'not_found',
        );
      expectError(await client.post('/v1/packages').send({ order_id: order.id }), 404, 'not_found');
      expect((await client.get('/v1/packages').expect(200)).body.data).toEqual([]);
    }
    const testPkg = await newPackage(fx.testOrderId, {}, test);
    expect(testPkg.livemode).toBe(false);
    expectError(await live.get(`/v1/packages/${testPkg.id}`), 404, 'not_found');
    expectError(
      await api(app, app.seed.entities.primary.keys.read_only)
        .post('/v1/packages')
        .send({ order_id: order.id }),
      403,
      'insufficient_scope',
      {
        required: 'fulfillment:write',
      },
    );
  });

  it('insures by the entity threshold once the package value reaches it', async () => {
    const product = await newProduct(live, { listPrice: 40 });
    await stock(live, product, fx.locationId, 5, 10);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: product, quantity: 3, unit_price: 40 },
    ]);
    const small = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
    expect(small.insurance).toBeNull();
    expectError(
      await live.patch('/v1/fulfillment/settings').send({ insurance_threshold: -1 }),
      400,
      'parameter_invalid',
      {
        param: 'insurance_threshold',
      },
    );
    expect(
      (await live.patch('/v1/fulfillment/settings').send({ insurance_threshold: 80 }).expect(200)).body,
    ).toMatchObject({
      object: 'fulfillment_settings',
      insurance_threshold: 80,
    });
    expect((await live.get(`/v1/packages/${small.id}`).expect(200)).body.insurance).toMatchObject({
      active: false,
      source: 'entity_threshold',
      amount: 0,
    });
    const big = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 2 }] });
    expect(big.insurance).toMatchObject({
      active: true,
      source: 'entity_threshold',
      amount: 80,
      covered_item_count: 1,
    });
    const rate = await rateOf(big.id, 'fedex', '2_day');
    expect(rate.insurance_fee).toBe(1.28);
    const bought = (
      await live
        .post(`/v1/packages/${big.id}/buy-label`)
        .send({ rate_object_id: rate.rate_object_id })
        .expect(200)
    ).body;
    expect(bought.insurance).toMatchObject({ bought: true, amount: 80, provider: 'FEDEX' });
    expect(bought.label).toMatchObject({ insured_amount: 80, insurance_fee: 1.28 });
    const testKey = api(app, app.seed.entities.primary.keys.test);
    expect((await testKey.get('/v1/fulfillment/settings').expect(200)).body.insurance_threshold).toBeNull();
    await live.patch('/v1/fulfillment/settings').send({ insurance_threshold: null }).expect(200);
  });
});
