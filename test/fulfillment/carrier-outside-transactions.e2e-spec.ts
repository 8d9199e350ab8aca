import type { Response } from 'supertest';
import { CARRIER_GATEWAY, type CarrierGateway } from '#contexts/fulfillment';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, entriesOf, fixturesOf, newProduct, stock } from './support';

/**
 * Labels are bought and handed back without a database transaction open: a package's (and its
 * order's) rows are not locked while the carrier works, and what the carrier answered is recorded
 * once, in a transaction of its own.
 */
describe('the carrier is called outside any transaction', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;
  let carrier: CarrierGateway;
  let sandbox: Pick<CarrierGateway, 'purchase' | 'refund'>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
    carrier = app.get(CARRIER_GATEWAY as never);
    sandbox = { purchase: carrier.purchase.bind(carrier), refund: carrier.refund.bind(carrier) };
  });
  afterEach(() => {
    carrier.purchase = sandbox.purchase;
    carrier.refund = sandbox.refund;
  });
  afterAll(() => app.close());

  /** A gate the carrier waits at: `arrived(n)` resolves once n calls wait, `release()` lets them all go. */
  const gate = () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const waiters: { n: number; resolve: () => void }[] = [];
    return {
      release,
      async pass() {
        calls += 1;
        waiters.filter((w) => w.n <= calls).forEach((w) => w.resolve());
        await released;
      },
      arrived: (n = 1) =>
        new Promise<void>((resolve) => (calls >= n ? resolve() : waiters.push({ n, resolve }))),
    };
  };
  /** Purchases hang until released; answers the tracking numbers sold. */
  const hangingPurchases = () => {
    const g = gate();
    const sold: string[] = [];
    carrier.purchase = async (request) => {
      await g.pass();
      const label = await sandbox.purchase(request);
      sold.push(label.trackingNumber);
      return label;
    };
    return { ...g, sold };
  };
  /** Records the tracking numbers the carrier is asked to take back, answering through `answer`. */
  const refundsAsked = (answer: CarrierGateway['refund'] = sandbox.refund) => {
    const asked: string[] = [];
    carrier.refund = (label) => {
      asked.push(label.trackingNumber);
      return answer(label);
    };
    return asked;
  };
  /** Answers within `ms` or fails: what a request waiting on a row lock would not do. */
  const promptly = <T>(work: PromiseLike<T>, ms = 3000): Promise<T> =>
    Promise.race([
      Promise.resolve(work),
      new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
    ]);
  const send = (req: PromiseLike<Response>) => Promise.resolve(req).then((r) => r);
  /** A confirmed order of `quantity` units of a product with 10 in stock at 4 each. */
  const stockedOrder = async (quantity: number) => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 4);
    return confirmedOrder(live, fx.accountId, [{ product_id: product, quantity, unit_price: 20 }]);
  };
  const newPackage = async (orderId: string, body: Record<string, unknown> = {}) =>
    (
      await live
        .post('/v1/packages')
        .send({ order_id: orderId, weight: 2, ...body })
        .expect(201)
    ).body as {
      id: string;
      package_number: string;
    };
  const rateOf = async (packageId: string, carrierName: string, service: string) => {
    const rates = (await live.get(`/v1/packages/${packageId}/rates`).expect(200)).body.data as {
      carrier: string;
      service_level: string;
      rate_object_id: string;
      amount: number;
    }[];
    return rates.find((r) => r.carrier === carrierName && r.service_level === service)!;
  };
  const typesOf = (id: string) => outbox(app).typesOf(id);
  const count = (types: string[], type: string) => types.filter((t) => t === type).length;

  it('buy-label: a hanging carrier holds no lock, and two purchases of one package record one label', async () => {
    const order = await stockedOrder(3);
    const pkg = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
    const usps = await rateOf(pkg.id, 'usps', 'priority');
    const ups = await rateOf(pkg.id, 'ups', 'ground');
    const hanging = hangingPurchases();
    const handedBack = refundsAsked();
    const first = send(
      live.post(`/v1/packages/${pkg.id}/buy-label`).send({ rate_object_id: usps.rate_object_id }),
    );
    await hanging.arrived(1);
    // Meanwhile the package is read and changed, and its order takes another package.
    expect((await promptly(live.get(`/v1/packages/${pkg.id}`))).body).toMatchObject({
      status: 'packing',
      label: null,
    });
    const patched = await promptly(live.patch(`/v1/packages/${pkg.id}`).send({ notes: 'fragile' }));
    expect(patched.status).toBe(200);
    const other = await promptly(
      live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1 }] }),
    );
    expect(other.status).toBe(201);
    // A second purchase of the same package reaches the carrier too.
    const second = send(
      live.post(`/v1/packages/${pkg.id}/buy-label`).send({ rate_object_id: ups.rate_object_id }),
    );
    await hanging.arrived(2);
    hanging.release();
    const answers = await Promise.all([first, second]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const won = answers.find((r) => r.status === 200)!;
    const lost = answers.find((r) => r.status === 409)!;
    expectError(lost, 409, 'invalid_state', { hint: expect.stringContaining("became 'labeled'") });
    expect(won.body).toMatchObject({ status: 'labeled', notes: 'fragile', label: { refund_status: null } });
    // The label kept is one the carrier sold; the other one sold was handed back, nothing else.
    expect(new Set(hanging.sold).size).toBe(2);
    expect(hanging.sold).toContain(won.body.label.tracking_number);
    expect(handedBack).toEqual(hanging.sold.filter((t) => t !== won.body.label.tracking_number));
    expect(count(await typesOf(pkg.id), 'fulfillment.label.purchased')).toBe(1);
    expect(await entriesOf(app, 'LABEL_REFUND_DENIED', pkg.id)).toEqual([]);
  });

  it('create with buy_label and fulfill_after_label: the order takes other packages meanwhile; one label, one shipment', async () => {
    const order = await stockedOrder(2);
    const quoted = await newPackage(order.id, { items: [] });
    const rate = await rateOf(quoted.id, 'ups', 'ground');
    const hanging = hangingPurchases();
    const created = send(
      live.post('/v1/packages').send({
        order_id: order.id,
        weight: 2,
        items: [{ order_item_id: order.items[0].id, quantity: 1 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        fulfill_after_label: true,
      }),
    );
    await hanging.arrived(1);
    const other = await promptly(
      live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1 }] }),
    );
    expect(other.status).toBe(201);
    expect((await promptly(live.get(`/v1/orders/${order.id}`))).status).toBe(200);
    hanging.release();
    const done = await created;
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({
      status: 'shipped',
      carrier: 'ups',
      label: { tracking_number: hanging.sold[0] },
      items: [{ order_item_id: order.items[0].id, quantity: 1 }],
    });
    expect(await typesOf(done.body.id)).toEqual([
      'fulfillment.package.created',
      'fulfillment.label.purchased',
      'fulfillment.shipped',
    ]);
    const [entry, ...more] = await entriesOf(app, 'FULFILLMENT', done.body.id);
    expect(more).toEqual([]);
    // One unit at a cost of 4 left the stock.
    expect(Number(entry.lines.find((l) => l.role === 'inventory')!.credit)).toBe(4);
  });

  it('create with buy_label for units other packages already hold is refused before the carrier is asked', async () => {
    const order = await stockedOrder(2);
    const quoted = await newPackage(order.id, { items: [] });
    const rate = await rateOf(quoted.id, 'ups', 'ground');
    await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
    const asked: string[] = [];
    carrier.purchase = async (request) => {
      asked.push(request.reference);
      return sandbox.purchase(request);
    };
    const refused = await live.post('/v1/packages').send({
      order_id: order.id,
      weight: 2,
      items: [{ order_item_id: order.items[0].id, quantity: 2 }],
      buy_label: true,
      rate_object_id: rate.rate_object_id,
    });
    expectError(refused, 422, 'quantity_exceeds_remaining');
    expect(asked).toEqual([]);
  });

  it('create with a label the transaction then refuses hands the label back and keeps no package', async () => {
    const order = await stockedOrder(2);
    const quoted = await newPackage(order.id, { items: [] });
    const rate = await rateOf(quoted.id, 'usps', 'priority');
    const hanging = hangingPurchases();
    const handedBack = refundsAsked();
    const created = send(
      live.post('/v1/packages').send({
        order_id: order.id,
        weight: 2,
        items: [{ order_item_id: order.items[0].id, quantity: 2 }],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
      }),
    );
    await hanging.arrived(1);
    // Meanwhile another package takes one of the two units the request packs.
    await promptly(newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] }));
    hanging.release();
    expectError(await created, 422, 'quantity_exceeds_remaining');
    expect(handedBack).toEqual(hanging.sold);
    const packages = (await live.get(`/v1/packages?order_id=${order.id}`).expect(200)).body.data as unknown[];
    expect(packages).toHaveLength(2);
  });

  it('void: the package is void while the carrier takes the label back; no answer is 503 and voiding again finishes once', async () => {
    const order = await stockedOrder(1);
    const pkg = await newPackage(order.id, { items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
    const rate = await rateOf(pkg.id, 'usps', 'priority');
    await live
      .post(`/v1/packages/${pkg.id}/buy-label`)
      .send({ rate_object_id: rate.rate_object_id })
      .expect(200);

    // The carrier does not answer: the package is void, its label's refund unanswered.
    refundsAsked(() => Promise.reject(new Error('connection reset')));
    expectError(await live.post(`/v1/packages/${pkg.id}/void`).send({}), 503, 'service_unavailable');
    expect((await live.get(`/v1/packages/${pkg.id}`).expect(200)).body).toMatchObject({
      status: 'void',
      label: { refund_status: null },
    });

    // Voided again while the carrier hangs: the package is read and refuses to ship meanwhile.
    const g = gate();
    const asked = refundsAsked(async (label) => {
      await g.pass();
      return sandbox.refund(label);
    });
    const again = send(live.post(`/v1/packages/${pkg.id}/void`).send({}));
    await g.arrived(1);
    expect((await promptly(live.get(`/v1/packages/${pkg.id}`))).body.status).toBe('void');
    expectError(await promptly(live.post(`/v1/packages/${pkg.id}/ship`).send({})), 409, 'invalid_state');
    g.release();
    const done = await again;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'void', label: { refund_status: 'refunded' } });
    expect(asked).toHaveLength(1);
    expect(count(await typesOf(pkg.id), 'fulfillment.package.voided')).toBe(1);
    // Recorded: a third void is refused like any void of a void package.
    expectError(await live.post(`/v1/packages/${pkg.id}/void`).send({}), 409, 'invalid_state');
    expect(await entriesOf(app, 'LABEL_REFUND_DENIED', pkg.id)).toEqual([]);
  });
});
