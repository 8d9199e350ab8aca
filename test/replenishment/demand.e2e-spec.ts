import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { asEntity } from '../support/as-entity';
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { ProductsService, ProductRepository } from '#contexts/catalog';
import {
  DemandAverageRefresher,
  DemandRecorderService,
  DemandService,
  LedgerMovement,
  DemandAggregateRepository,
} from '#contexts/replenishment';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { startDispatcher } from '../support/dispatcher';
import { eventually } from '../support/eventually';
import { api } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { watchConnection } from '../support/transaction-watch';
import { StockService } from '#contexts/inventory';

let tracking = 0;

/** Packs `items` of the order from its location and ships the package with a carrier given by hand. */
async function shipByHand(
  client: ReturnType<typeof api>,
  order: { id: string; location: string },
  items: { order_item_id: string; quantity: number }[],
): Promise<void> {
  const pkg = await client
    .post('/v1/packages')
    .send({ order_id: order.id, location_id: order.location, items })
    .expect(201);
  await client
    .post(`/v1/packages/${pkg.body.id}/ship`)
    .send({ carrier: 'ups', tracking_number: `1ZDEMAND${++tracking}` })
    .expect(200);
}

describe('demand aggregates and kit order lines', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let seq = 0;
  let accountId: string;
  const locationId = randomUUID();
  const product = async (type = 'standard') =>
    (
      await live
        .post('/v1/products')
        .send({ sku: `DM-${Date.now().toString(36)}-${++seq}`, name: `Part ${seq}`, type, list_price: 10 })
        .expect(201)
    ).body.id as string;
  const asLive = <T>(fn: () => Promise<T>) => asEntity(app, fn);
  /** What inventory hands the observer's two steps, inside the transaction that writes the rows. */
  const observe = (rows: Partial<LedgerMovement>[]) =>
    asLive(() =>
      app.get(TransactionHost).run(async () => {
        const movements = rows.map((r) => ({
          productId: r.productId!,
          locationId,
          type: r.type ?? 'fulfillment',
          quantity: r.quantity!,
          sourceType: r.sourceType ?? 'package',
          sourceId: r.sourceId ?? randomUUID(),
          orderId: r.orderId ?? null,
          orderItemId: r.orderItemId ?? null,
          occurredAt: r.occurredAt ?? new Date(),
        }));
        const recordWritten = await app.get(DemandRecorderService).prepare(movements);
        await recordWritten(movements);
      }),
    );
  const order = async (documentType: string, lines: { product_id: string; quantity: number }[]) => {
    const created = await live
      .post('/v1/orders')
      .send({ document_type: documentType, account_id: accountId, lines })
      .expect(201);
    return created.body as {
      id: string;
      lines: { id: string; product_id: string; parent_line_id: string | null; quantity: number }[];
    };
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    accountId = (await live.post('/v1/accounts').send({ name: 'Demand customer' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  it('gives a kit line its component lines (parent_line_id), priced at 0, kept in step with the kit line', async () => {
    const kit = await product('kit');
    const [c1, c2] = [await product(), await product()];
    await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: c1, quantity: 2 })
      .expect(201);
    await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: c2, quantity: 3 })
      .expect(201);
    const plain = await product();
    const created = await order('sales_order', [
      { product_id: kit, quantity: 2 },
      { product_id: plain, quantity: 1 },
    ]);
    const [parent, child1, child2, other] = created.lines;
    expect(parent).toMatchObject({ product_id: kit, parent_line_id: null, quantity: 2, position: 0 });
    expect(child1).toMatchObject({
      product_id: c1,
      parent_line_id: parent.id,
      quantity: 4,
      unit_price: 0,
      total: 0,
    });
    expect(child2).toMatchObject({ product_id: c2, parent_line_id: parent.id, quantity: 6 });
    expect(other).toMatchObject({ product_id: plain, parent_line_id: null });
    expect(created).toMatchObject({ subtotal: 30 });

    const updated = await live
      .patch(`/v1/orders/${created.id}/lines/${parent.id}`)
      .send({ quantity: 1 })
      .expect(200);
    const children = updated.body.lines.filter(
      (l: { parent_line_id: string | null }) => l.parent_line_id === parent.id,
    );
    expect(children.map((l: { quantity: number }) => l.quantity).sort()).toEqual([2, 3]);

    const quote = await order('quote', [{ product_id: kit, quantity: 1 }]);
    const converted = await live.post(`/v1/orders/${quote.id}/convert`).expect(200);
    const target = converted.body;
    const newParent = target.lines.find((l: { product_id: string }) => l.product_id === kit);
    expect(
      target.lines.filter((l: { parent_line_id: string }) => l.parent_line_id === newParent.id),
    ).toHaveLength(2);
  });

  it('aggregates qualifying decrements per day and reads run rates and committed demand from them', async () => {
    const p = await product();
    const so = await order('sales_order', [{ product_id: p, quantity: 10 }]);
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    const quote = await order('quote', [{ product_id: p, quantity: 7 }]);
    const po = await order('purchase_order', [{ product_id: p, quantity: 7 }]);
    const line = so.lines[0].id;
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    await observe([
      { productId: p, quantity: -3, orderId: so.id, orderItemId: line },
      { productId: p, quantity: -2, orderId: so.id, orderItemId: line, occurredAt: daysAgo(60) },
      { productId: p, quantity: -5, orderId: quote.id, orderItemId: quote.lines[0].id },
      { productId: p, quantity: -5, orderId: po.id, orderItemId: po.lines[0].id },
      { productId: p, quantity: -4, type: 'adjustment', sourceType: 'adjustment' },
      { productId: p, quantity: 9, type: 'receipt', sourceType: 'purchase_order' },
      { productId: p, quantity: -6, type: 'build_consumption', sourceType: 'build' },
    ]);
    const demand = app.get(DemandService);
    const balance = await asLive(() => demand.balanceDemand(p, locationId));
    // 30 days: 3 shipped + 6 drawn = 9 -> 0.3/day; 90 days adds the 2 shipped 60 days ago.
    expect(balance.run_rate_30.toFixed(4)).toBe('0.3000');
    expect(balance.run_rate_90.toFixed(4)).toBe('0.1222');
    expect(balance.run_rate_180.toFixed(4)).toBe('0.0611');
    expect(balance.run_rate_365.toFixed(4)).toBe('0.0301');
    expect(balance.demand_basis).toBe('sales_and_builds');
    // 10 ordered, 5 shipped; the quote and the purchase order are not customer demand.
    expect(balance.current_demand_units).toBe(5);
    // The stored aggregates over every location (all of them fall in the 365-day window).
    const [stored] = await asLive(async () =>
      app
        .get(DemandAggregateRepository)
        .windowSums([{ productId: p, locationId: null }], await demand.businessDay()),
    );
    expect(stored[365]).toEqual({ sale: 5, component: 0, build: 6 });
    // The product's demand_avg_per_day follows once refreshed: the blend over every location.
    await app.get(DemandAverageRefresher).settle();
    const fetched = (await live.get(`/v1/products/${p}`).expect(200)).body;
    // Every movement is at one location, so the product's blend is the run rates above blended
    // 0.4·0.3 + 0.3·0.1222 + 0.2·0.0611 + 0.1·0.0301 = 0.17189, to 4 decimals.
    expect(fetched.demand_avg_per_day).toBe(0.1719);
  });

  it('counts a kit assembled to order by its component lines, and a kit from stock by its own line', async () => {
    const kit = await product('kit');
    const c = await product();
    await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: c, quantity: 2 })
      .expect(201);
    const so = await order('sales_order', [{ product_id: kit, quantity: 3 }]);
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    const [parent, child] = so.lines;
    const demand = app.get(DemandService);
    // Committed: the component line, not the kit line.
    const before = await asLive(() => demand.currentDemandUnits([kit, c]));
    expect(Object.fromEntries(before)).toEqual({ [kit]: 0, [c]: 6 });
    await observe([{ productId: c, quantity: -6, orderId: so.id, orderItemId: child.id }]);
    const after = await asLive(() => demand.currentDemandUnits([kit, c]));
    expect(Object.fromEntries(after)).toEqual({ [kit]: 0, [c]: 0 });
    const componentRates = await asLive(() => demand.balanceDemand(c, locationId));
    expect(componentRates.run_rate_30.toFixed(4)).toBe('0.2000');
    expect(componentRates.demand_basis).toBe('consumption');
    // A kit shipped from stock on its own line counts as the kit.
    await observe([{ productId: kit, quantity: -1, orderId: so.id, orderItemId: parent.id }]);
    expect((await asLive(() => demand.balanceDemand(kit, locationId))).run_rate_30.toFixed(4)).toBe('0.0333');
  });
  it('refreshes the demand average of every product a shipment moves: one product.updated each, with its previous value', async () => {
    const shipFrom = app.seed.fixtures.location_id as string;
    const products = [await product(), await product(), await product()];
    const perPackage = [1, 3, 6];
    for (const p of products)
      await live
        .post('/v1/inventory/adjustments')
        .send({ product_id: p, location_id: shipFrom, quantity: 20, unit_cost: 2, reason: 'demand stock' })
        .expect(201);
    const so = await order(
      'sales_order',
      products.map((p, i) => ({ product_id: p, quantity: 2 * perPackage[i] })),
    );
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    /** One package of every line (perPackage units each), shipped. */
    const ship = () =>
      shipByHand(
        live,
        { id: so.id, location: shipFrom },
        so.lines.map((l, i) => ({ order_item_id: l.id, quantity: perPackage[i] })),
      );
    /** Each product's product.updated events carry `values` in order, each after the one before. */
    const expectRecorded = async (values: number[][]) => {
      for (const [i, p] of products.entries()) {
        const events = (await outbox(app).eventsOf(p)).filter((e) => e.type === 'product.updated');
        expect(events.map((e) => e.data.object.demand_avg_per_day)).toEqual(values[i]);
        expect(events.map((e) => e.data.previous_attributes)).toEqual(
          values[i].map((_, n) => ({ demand_avg_per_day: n === 0 ? 0 : values[i][n - 1] })),
        );
        const fetched = (await live.get(`/v1/products/${p}`).expect(200)).body;
        expect(fetched.demand_avg_per_day).toBe(values[i].at(-1));
        // The event carries the product as stored (updated_at as the write left it).
        expect(events.at(-1)!.data.object).toEqual(fetched);
      }
    };

    const refresher = app.get(DemandAverageRefresher);
    await ship();
    await refresher.settle();
    // q units shipped today: q/30, q/90, q/180 and q/365 a day, blended 0.4/0.3/0.2/0.1:
    // 1 -> 0.0180, 3 -> 0.0542, 6 -> 0.1083.
    await expectRecorded([[0.018], [0.0542], [0.1083]]);
    await ship();
    await refresher.settle();
    // Twice as many: 2 -> 0.0361, 6 -> 0.1083, 12 -> 0.2166.
    await expectRecorded([
      [0.018, 0.0361],
      [0.0542, 0.1083],
      [0.1083, 0.2166],
    ]);
  });

  it("reads the lines' facts with the balances' lock and writes the shipment's demand", async () => {
    const shipFrom = app.seed.fixtures.location_id as string;
    const p = await product();
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: p, location_id: shipFrom, quantity: 5, unit_cost: 2, reason: 'demand stock' })
      .expect(201);
    const so = await order('sales_order', [{ product_id: p, quantity: 2 }]);
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    const log: string[] = [];
    let restore = () => undefined as unknown;
    await asLive(() =>
      app.get(TransactionHost).run(async (manager) => {
        restore = watchConnection(manager, log, { words: 6 });
        await app.get(StockService).shipPackage({
          packageId: randomUUID(),
          orderId: so.id,
          lines: [{ orderItemId: so.lines[0].id, productId: p, locationId: shipFrom, quantity: 2 }],
        });
      }),
    );
    restore();
    const at = (entry: string) => {
      const i = log.findIndex((l) => l.startsWith(entry));
      expect({ entry, found: i >= 0 }).toEqual({ entry, found: true });
      return i;
    };
    // The observer's read is on its way before the balances' lock answers …
    expect(at('sent SELECT l.id AS line_id,')).toBeLessThan(at('answered WITH created AS ( INSERT INTO'));
    // … and its write (aggregates, shipped units and marks: one statement) follows the ledger's.
    expect(at('sent WITH w0 AS (INSERT INTO demand_daily')).toBeGreaterThan(
      at('answered WITH t AS ( INSERT INTO'),
    );
    // The write counted the shipment.
    const [stored] = await asLive(async () =>
      app
        .get(DemandAggregateRepository)
        .windowSums([{ productId: p, locationId: null }], await app.get(DemandService).businessDay()),
    );
    expect(stored[30]).toEqual({ sale: 2, component: 0, build: 0 });
  });

  it('records demand averages in one go: unchanged products keep their row and get no event', async () => {
    const [a, b] = [await product(), await product()];
    const record = (averages: [string, string][]) =>
      asLive(() =>
        app.get(TransactionHost).run(() =>
          app.get(ProductsService).recordDemandAverages(
            averages.map(([id]) => id),
            async () => new Map(averages.map(([id, v]) => [id, new Decimal(v)])),
          ),
        ),
      );
    const before = (await live.get(`/v1/products/${a}`).expect(200)).body;
    await record([
      [a, '0.0000'],
      [b, '0.25'],
    ]);
    expect((await live.get(`/v1/products/${a}`).expect(200)).body).toEqual(before);
    const updated = (await live.get(`/v1/products/${b}`).expect(200)).body;
    expect(updated.demand_avg_per_day).toBe(0.25);
    const events = async (id: string) =>
      (await outbox(app).typesOf(id)).filter((t) => t === 'product.updated');
    expect(await events(a)).toEqual([]);
    expect(await events(b)).toEqual(['product.updated']);
    const stored = await asLive(() => app.get(ProductRepository).findByIds([a, b]));
    expect(Object.fromEntries(stored.map((r) => [r.id, r.version]))).toEqual({ [a]: 1, [b]: 2 });
    // A product that is not the caller's is the contract's 404, and nothing is written.
    const missing = randomUUID();
    await expect(
      record([
        [b, '0.5'],
        [missing, '1'],
      ]),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await live.get(`/v1/products/${b}`).expect(200)).body.demand_avg_per_day).toBe(0.25);
  });
});

describe('demand averages refreshed after the movement commits', () => {
  let app: TestApp;
  let dispatcher: INestApplicationContext | undefined;
  let live: ReturnType<typeof api>;
  let seq = 0;

  /** A product with 20 units at the seed's location, a confirmed order of `units` of it per package. */
  const stockedOrder = async (perPackage: number, packages: number) => {
    const shipFrom = app.seed.fixtures.location_id as string;
    const product = (
      await live
        .post('/v1/products')
        .send({ sku: `DR-${Date.now().toString(36)}-${++seq}`, name: `Refreshed ${seq}`, list_price: 10 })
        .expect(201)
    ).body.id as string;
    await live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: product,
        location_id: shipFrom,
        quantity: 20,
        unit_cost: 2,
        reason: 'demand stock',
      })
      .expect(201);
    const account = (
      await live
        .post('/v1/accounts')
        .send({ name: `Refresh customer ${seq}` })
        .expect(201)
    ).body.id;
    const so = (
      await live
        .post('/v1/orders')
        .send({
          document_type: 'sales_order',
          account_id: account,
          lines: [{ product_id: product, quantity: perPackage * packages }],
        })
        .expect(201)
    ).body as { id: string; lines: { id: string }[] };
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    const ship = () =>
      shipByHand(live, { id: so.id, location: shipFrom }, [
        { order_item_id: so.lines[0].id, quantity: perPackage },
      ]);
    return { product, ship };
  };
  const averageOf = async (client: ReturnType<typeof api>, product: string) =>
    (await client.get(`/v1/products/${product}`).expect(200)).body.demand_avg_per_day as number;
  /** Reads the product over HTTP until its average is `expected`. */
  const reaches = (product: string, expected: number) =>
    eventually(async () => (await averageOf(live, product)) === expected, {
      label: `demand_avg_per_day ${expected}`,
    });
  const demandEvents = async (product: string) =>
    (await outbox(app).eventsOf(product)).filter((e) => e.type === 'product.updated');

  afterEach(async () => {
    await dispatcher?.close();
    dispatcher = undefined;
    await app?.close();
  });

  it('follows a shipment over HTTP shortly after it commits, without any call to wait for it', async () => {
    app = await startTestApp({ DEMAND_REFRESH_DELAY_MS: 100 });
    live = api(app, app.seed.entities.primary.keys.live);
    // The dispatcher runs the refresh; its sweep runs once at start, then not during the test, so
    // the refresh the shipment queued after its commit is what brings the average up to date.
    dispatcher = await startDispatcher(app, { DEMAND_REFRESH_SWEEP_MS: 600_000 });
    const { product, ship } = await stockedOrder(3, 1);
    await ship();
    // 3 units today: 0.4·3/30 + 0.3·3/90 + 0.2·3/180 + 0.1·3/365 = 0.0542.
    expect(await reaches(product, 0.0542)).toBe(true);
    const events = await demandEvents(product);
    expect(events.map((e) => e.data.previous_attributes)).toEqual([{ demand_avg_per_day: 0 }]);
  });

  it('gives the shipments of one delay one refresh, and refreshes what is marked when no job is due', async () => {
    // No dispatcher yet, and the refresh the shipments queue is not due while the test runs.
    app = await startTestApp({ DEMAND_REFRESH_DELAY_MS: 60_000 });
    live = api(app, app.seed.entities.primary.keys.live);
    const { product, ship } = await stockedOrder(3, 2);
    await ship();
    await ship();
    // Both shipments committed; the stored average is still as of before them, and one refresh
    // is queued for both.
    expect(await averageOf(live, product)).toBe(0);
    expect(await demandEvents(product)).toEqual([]);
    const queue = app.get<Queue>(getQueueToken(QUEUE_NAMES.replenishment) as never);
    expect((await queue.getJobs(['delayed'])).map((job) => job.name)).toEqual(['refresh-demand-averages']);
    // A dispatcher started now refreshes the marks with its sweep, long before that job is due.
    dispatcher = await startDispatcher(app, { DEMAND_REFRESH_SWEEP_MS: 500 });
    // 6 units today: 0.4·6/30 + 0.3·6/90 + 0.2·6/180 + 0.1·6/365 = 0.1083, in one event.
    expect(await reaches(product, 0.1083)).toBe(true);
    const events = await demandEvents(product);
    expect(events.map((e) => [e.data.object.demand_avg_per_day, e.data.previous_attributes])).toEqual([
      [0.1083, { demand_avg_per_day: 0 }],
    ]);
    // Nothing is left to refresh.
    expect(await app.get(DemandAverageRefresher).settle()).toBe(0);
  });
});
