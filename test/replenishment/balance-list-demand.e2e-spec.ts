import { randomUUID } from 'node:crypto';
import { DemandRecorderService, DemandAggregateRepository } from '#contexts/replenishment';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { asEntity } from '../support/as-entity';
import { api } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';
import { newLocation, newProduct } from '../inventory/support';

interface Balance {
  id: string;
  product_id: string;
  location_id: string;
  demand_avg_per_day: number;
}

describe('inventory balances: demand_avg_per_day on the list', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  /** Rounded to 4 decimals, half up (the run rates and the blend are given to 4 decimals). */
  const round4 = (x: number) => Math.round(x * 10_000 + 1e-9) / 10_000;
  /**
   * The demand average of units drawn on the given days back, by the documented rule (not by the
   * code under test): the run rate of each window (units in its N days / N, 4 decimals) blended
   * 0.4·30 + 0.3·90 + 0.2·180 + 0.1·365.
   */
  const blendedDaily = (units: { quantity: number; daysAgo: number }[]) =>
    round4(
      (
        [
          [30, 0.4],
          [90, 0.3],
          [180, 0.2],
          [365, 0.1],
        ] as const
      ).reduce(
        (sum, [days, weight]) =>
          sum +
          weight * round4(units.filter((u) => u.daysAgo < days).reduce((n, u) => n + u.quantity, 0) / days),
        0,
      ),
    );

  /** Records units of `productId` drawn by builds at `locationId` on the given days back, as inventory hands them over. */
  const recordDrawn = (
    productId: string,
    locationId: string,
    units: { quantity: number; daysAgo: number }[],
  ) =>
    asEntity(app, () =>
      app.get(TransactionHost).run(async () => {
        const movements = units.map((u) => ({
          productId,
          locationId,
          type: 'build_consumption',
          quantity: -u.quantity,
          sourceType: 'build',
          sourceId: randomUUID(),
          orderId: null,
          orderItemId: null,
          occurredAt: new Date(Date.now() - u.daysAgo * 86_400_000),
        }));
        const written = await app.get(DemandRecorderService).prepare(movements);
        await written(movements);
      }),
    );

  it('shows each balance the demand of its product at its location, as the retrieve does, read once per page', async () => {
    const product = await newProduct(live);
    const [busy, quiet] = [await newLocation(live), await newLocation(live)];
    for (const location of [busy, quiet])
      await live
        .post('/v1/inventory/adjustments')
        .send({ product_id: product, location_id: location, quantity: 50, unit_cost: 2, reason: 'count' })
        .expect(201);
    const drawn = [
      { quantity: 9, daysAgo: 1 },
      { quantity: 6, daysAgo: 100 },
    ];
    await recordDrawn(product, busy, drawn);

    const reads = jest.spyOn(app.get(DemandAggregateRepository), 'windowSums');
    const listed = await listAll<Balance>(live, `/v1/inventory/balances?product_id=${product}`);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();

    expect(listed).toHaveLength(2);
    const byLocation = new Map(listed.map((b) => [b.location_id, b]));
    // 9 units in 30 and 90 days, 15 in 180 and 365: 0.4·0.3 + 0.3·0.1 + 0.2·0.0833 + 0.1·0.0411 = 0.1708.
    expect(blendedDaily(drawn)).toBe(0.1708);
    expect(byLocation.get(busy)!.demand_avg_per_day).toBe(blendedDaily(drawn));
    expect(byLocation.get(quiet)!.demand_avg_per_day).toBe(0);
    for (const location of [busy, quiet]) {
      const balance = byLocation.get(location)!;
      const retrieved = (await live.get(`/v1/inventory/balances/${balance.id}`).expect(200)).body as Balance;
      expect(retrieved.demand_avg_per_day).toBe(balance.demand_avg_per_day);
    }
  });

  it('keeps an empty page empty', async () => {
    const product = await newProduct(live);
    const page = await live.get(`/v1/inventory/balances?product_id=${product}`).expect(200);
    expect(page.body).toMatchObject({ object: 'list', data: [], has_more: false });
  });
});
