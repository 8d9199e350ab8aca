import { asEntity } from '../support/as-entity';
import { DemandAverageRefresher, DemandService } from '#contexts/replenishment';
import { balanceEvents, newLocation, newProduct } from '../inventory/support';
import { listAll } from '../support/list-all';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe('builds, balance demand fields and the reorder report', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let test: ReturnType<typeof api>;
  let other: ReturnType<typeof api>;
  let today: string;
  let location: string;

  const stock = (productId: string, quantity: number, unitCost: number, locationId = location) =>
    live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: productId,
        location_id: locationId,
        quantity,
        ...(quantity > 0 ? { unit_cost: unitCost } : {}),
        reason: 'opening stock',
      })
      .expect(201);
  const balanceOf = async (productId: string, locationId = location) => {
    const res = await live
      .get(`/v1/inventory/balances?product_id=${productId}&location_id=${locationId}`)
      .expect(200);
    return res.body.data[0] as { id: string; on_hand: number; value: number };
  };
  const kitOf = async (components: [string, number][]) => {
    const kit = await newProduct(live, { type: 'kit' });
    for (const [component, quantity] of components)
      await live
        .post(`/v1/products/${kit}/components`)
        .send({ component_product_id: component, quantity })
        .expect(201);
    return kit;
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
    location = await newLocation(live);
    today = await asEntity(app, () => app.get(DemandService).businessDay());
  });
  afterAll(() => app.close());

  describe('POST /inventory/builds', () => {
    let c1: string;
    let c2: string;
    let kit: string;

    beforeAll(async () => {
      [c1, c2] = [await newProduct(live), await newProduct(live)];
      await stock(c1, 10, 3);
      await stock(c2, 5, 4);
      kit = await kitOf([
        [c1, 2],
        [c2, 1],
      ]);
    });

    it('posts a build: components drawn at cost, kits added at that cost, one MANUFACTURING entry', async () => {
      const res = await live
        .post('/v1/inventory/builds')
        .send({ kit_product_id: kit, quantity: 3, location_id: location })
        .expect(201);
      expect(res.body).toMatchObject({
        object: 'build',
        kit_product_id: kit,
        location_id: location,
        quantity: 3,
        status: 'posted',
        unit_cost: 10,
        total_cost: 30,
        posted_at: expect.any(String),
        journal_entry_id: expect.any(String),
      });
      expect(res.body.components).toEqual(
        expect.arrayContaining([
          { product_id: c1, quantity_per_kit: 2, quantity: 6, unit_cost: 3, value: 18 },
          { product_id: c2, quantity_per_kit: 1, quantity: 3, unit_cost: 4, value: 12 },
        ]),
      );
      expect(await balanceOf(kit)).toMatchObject({ on_hand: 3, value: 30 });
      expect(await balanceOf(c1)).toMatchObject({ on_hand: 4, value: 12 });
      const rows = await listAll<{ id: string; type: string; quantity: number }>(
        live,
        `/v1/inventory/transactions?source_id=${res.body.id}`,
      );
      const byType = new Map<string, number>();
      for (const r of rows) byType.set(r.type, (byType.get(r.type) ?? 0) + r.quantity);
      expect(Object.fromEntries(byType)).toEqual({ build_consumption: -9, build_output: 3 });
      const entry = (await live.get(`/v1/journal-entries/${res.body.journal_entry_id}`).expect(200)).body;
      expect(entry).toMatchObject({ source_type: 'MANUFACTURING', source_id: res.body.id });
      expect((await live.get(`/v1/inventory/builds/${res.body.id}`).expect(200)).body).toEqual(res.body);
      const list = await live.get('/v1/inventory/builds').expect(200);
      expect(list.body).toMatchObject({ object: 'list', url: '/v1/inventory/builds' });
      expect(list.body.data[0].id).toBe(res.body.id);
    });

    it('refuses a build that would take a component below zero, naming the component, and moves nothing', async () => {
      const res = await live
        .post('/v1/inventory/builds')
        .send({ kit_product_id: kit, quantity: 5, location_id: location });
      expectError(res, 422, 'insufficient_stock', { param: c1 });
      expect(await balanceOf(c1)).toMatchObject({ on_hand: 4 });
      expect(await balanceOf(c2)).toMatchObject({ on_hand: 2 });
    });

    it('drafts, posts and voids: draft -> posted, draft -> voided, nothing else', async () => {
      const draft = await live
        .post('/v1/inventory/builds')
        .send({
          kit_product_id: kit,
          quantity: 1,
          location_id: location,
          status: 'draft',
          notes: 'for Monday',
        })
        .expect(201);
      expect(draft.body).toMatchObject({
        status: 'draft',
        total_cost: null,
        journal_entry_id: null,
        notes: 'for Monday',
      });
      expect(await balanceOf(c1)).toMatchObject({ on_hand: 4 });
      const posted = await live.post(`/v1/inventory/builds/${draft.body.id}/post`).expect(200);
      expect(posted.body).toMatchObject({ status: 'posted', total_cost: 10 });
      expect(await balanceOf(c1)).toMatchObject({ on_hand: 2 });
      expectError(await live.post(`/v1/inventory/builds/${draft.body.id}/void`), 409, 'invalid_state');
      expectError(await live.post(`/v1/inventory/builds/${draft.body.id}/post`), 409, 'invalid_state');
      const other = await live
        .post('/v1/inventory/builds')
        .send({ kit_product_id: kit, quantity: 1, location_id: location, status: 'draft' })
        .expect(201);
      const voided = await live.post(`/v1/inventory/builds/${other.body.id}/void`).expect(200);
      expect(voided.body).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
      expectError(await live.post(`/v1/inventory/builds/${other.body.id}/post`), 409, 'invalid_state');
    });

    it('validates the request', async () => {
      const plain = await newProduct(live);
      for (const [body, code, param] of [
        [{ quantity: 1, location_id: location }, 'parameter_missing', 'kit_product_id'],
        [{ kit_product_id: kit, location_id: location }, 'parameter_missing', 'quantity'],
        [{ kit_product_id: kit, quantity: 0, location_id: location }, 'parameter_invalid', 'quantity'],
        [
          { kit_product_id: kit, quantity: 1, location_id: location, status: 'voided' },
          'parameter_invalid',
          'status',
        ],
        [
          { kit_product_id: plain, quantity: 1, location_id: location },
          'parameter_invalid',
          'kit_product_id',
        ],
        [
          { kit_product_id: await newProduct(live, { type: 'kit' }), quantity: 1, location_id: location },
          'parameter_invalid',
          'kit_product_id',
        ],
        [{ kit_product_id: kit, quantity: 1, location_id: plain }, 'parameter_invalid', 'location_id'],
        [
          { kit_product_id: kit, quantity: 1, location_id: location, order_line_id: plain },
          'parameter_invalid',
          'order_line_id',
        ],
      ] as const) {
        expectError(await live.post('/v1/inventory/builds').send(body), 400, code, { param });
      }
    });

    it('isolates entities and modes, and checks scopes', async () => {
      const id = (await live.get('/v1/inventory/builds').expect(200)).body.data[0].id;
      expectError(await other.get(`/v1/inventory/builds/${id}`), 404, 'not_found');
      expectError(await test.get(`/v1/inventory/builds/${id}`), 404, 'not_found');
      expectError(await test.post(`/v1/inventory/builds/${id}/void`), 404, 'not_found');
      expectError(
        await api(app, app.seed.entities.primary.keys.read_only)
          .post('/v1/inventory/builds')
          .send({ kit_product_id: kit, quantity: 1, location_id: location }),
        403,
        'insufficient_scope',
        { required: 'inventory:write' },
      );
    });

    it('shows demand on the component balance and product from the posted draws', async () => {
      const balance = await balanceOf(c1);
      const res = await live.get(`/v1/inventory/balances/${balance.id}`).expect(200);
      // 6 + 2 units drawn today: 8/30, 8/90, 8/180, 8/365; blended 0.4·0.2667 + 0.3·0.0889 + 0.2·0.0444 + 0.1·0.0219
      expect(res.body).toMatchObject({
        id: balance.id,
        current_demand_units: 0,
        run_rate_30: 0.2667,
        run_rate_90: 0.0889,
        run_rate_180: 0.0444,
        run_rate_365: 0.0219,
        blended_daily: 0.1444,
        demand_avg_per_day: 0.1444,
        demand_basis: 'builds',
      });
      await app.get(DemandAverageRefresher).settle();
      expect((await live.get(`/v1/products/${c1}`).expect(200)).body.demand_avg_per_day).toBe(0.1444);
      const kitBalance = await live.get(`/v1/inventory/balances/${(await balanceOf(kit)).id}`).expect(200);
      expect(kitBalance.body).toMatchObject({ run_rate_30: 0, blended_daily: 0, demand_basis: 'sales' });
    });
  });

  describe('GET /purchasing/reorder-report', () => {
    let p: string;
    let p2: string;
    let vendor: string;
    let balanceId: string;

    beforeAll(async () => {
      [p, p2] = [await newProduct(live), await newProduct(live)];
      vendor = (await live.post('/v1/accounts').send({ name: 'Reorder vendor' }).expect(201)).body.id;
      for (const product of [p, p2]) {
        await live
          .post(`/v1/products/${product}/vendors`)
          .send({ vendor_account_id: vendor, lead_time_days: 10, min_order_quantity: 20, order_multiple: 12 })
          .expect(201);
      }
      await stock(p, 40, 1);
      await stock(p2, 500, 1);
      // 30 units of p drawn today by builds: daily demand 1 over 30 days, 0.3333 over 90.
      const kit = await kitOf([[p, 1]]);
      await live
        .post('/v1/inventory/builds')
        .send({ kit_product_id: kit, quantity: 30, location_id: location })
        .expect(201);
      balanceId = (await balanceOf(p)).id;
      await live.patch(`/v1/inventory/balances/${balanceId}`).send({ safety_stock: 5 }).expect(200);
    });

    const rowOf = async (query: string) => {
      const res = await live
        .get(`/v1/purchasing/reorder-report?vendor_account_id=${vendor}&${query}`)
        .expect(200);
      return res.body.data.find((r: { product_id: string }) => r.product_id === p);
    };

    it('computes the reorder point, cover-through and the order rounded up to order_multiple (30-day window)', async () => {
      const row = await rowOf('demand_window=30');
      expect(row).toEqual({
        id: balanceId,
        object: 'reorder_report_row',
        balance_id: balanceId,
        product_id: p,
        variant_id: null,
        location_id: location,
        sku: expect.any(String),
        unit: 'ea',
        demand_window: 30,
        daily_demand: 1,
        demand_basis: 'builds',
        on_hand: 10,
        allocated: 0,
        on_order: 0,
        available: 10,
        // ceil(10 days × 1/day) + 5 safety stock
        reorder_point: 15,
        reorder_point_source: 'computed',
        reorder_point_inputs: { lead_time_days: 10, daily_demand: 1, safety_stock: 5 },
        lead_time_days: 10,
        vendor_account_id: vendor,
        product_vendor_id: expect.any(String),
        min_order_quantity: 20,
        order_multiple: 12,
        cover_through: addDays(today, 10),
        // target 15 + 10 = 25, projected 10: 15 rounded up to 12s = 24 (>= 20)
        net_suggested_qty: 24,
        below_reorder_point: true,
      });
    });

    it('defaults to the 90-day window', async () => {
      const row = await rowOf('');
      // 30/90 = 0.3333/day: reorder point ceil(3.333) + 5 = 9 < 10 available: nothing to order
      expect(row).toMatchObject({
        demand_window: 90,
        daily_demand: 0.3333,
        reorder_point: 9,
        net_suggested_qty: 0,
        cover_through: addDays(today, 30),
        below_reorder_point: false,
      });
    });

    it('uses a manual reorder point as set, and says so', async () => {
      await live.patch(`/v1/inventory/balances/${balanceId}`).send({ reorder_point: 50 }).expect(200);
      const row = await rowOf('demand_window=30');
      // target 50 + 10 = 60, projected 10 -> 50, rounded up to 12s -> 60
      expect(row).toMatchObject({
        reorder_point: 50,
        reorder_point_source: 'manual',
        reorder_point_inputs: null,
        net_suggested_qty: 60,
      });
      await live.patch(`/v1/inventory/balances/${balanceId}`).send({ reorder_point: null }).expect(200);
    });

    it('filters and paginates with cursors', async () => {
      const all = await live.get(`/v1/purchasing/reorder-report?vendor_account_id=${vendor}`).expect(200);
      expect(all.body.data.map((r: { product_id: string }) => r.product_id).sort()).toEqual([p, p2].sort());
      expect(all.body).toMatchObject({
        object: 'list',
        has_more: false,
        url: '/v1/purchasing/reorder-report',
      });
      const first = await live
        .get(`/v1/purchasing/reorder-report?vendor_account_id=${vendor}&limit=1`)
        .expect(200);
      expect(first.body.has_more).toBe(true);
      const second = await live
        .get(
          `/v1/purchasing/reorder-report?vendor_account_id=${vendor}&limit=1&starting_after=${first.body.data[0].id}`,
        )
        .expect(200);
      expect(second.body).toMatchObject({ has_more: false });
      expect([first.body.data[0].id, second.body.data[0].id]).toEqual(
        all.body.data.map((r: { id: string }) => r.id),
      );
      const back = await live
        .get(
          `/v1/purchasing/reorder-report?vendor_account_id=${vendor}&limit=1&ending_before=${second.body.data[0].id}`,
        )
        .expect(200);
      expect(back.body.data[0].id).toBe(first.body.data[0].id);
      const below = await live
        .get(
          `/v1/purchasing/reorder-report?vendor_account_id=${vendor}&demand_window=30&only_below_reorder_point=true`,
        )
        .expect(200);
      expect(below.body.data.map((r: { product_id: string }) => r.product_id)).toEqual([p]);
      const elsewhere = await newLocation(live);
      const none = await live
        .get(`/v1/purchasing/reorder-report?vendor_account_id=${vendor}&location_id=${elsewhere}`)
        .expect(200);
      expect(none.body.data).toEqual([]);
      const unknownVendor = await live
        .get(`/v1/purchasing/reorder-report?vendor_account_id=${p}`)
        .expect(200);
      expect(unknownVendor.body.data).toEqual([]);
    });

    it('answers 400 for a bad demand_window and other bad parameters, 403 without purchasing:read', async () => {
      for (const value of ['45', '0', 'abc', '30.5']) {
        expectError(
          await live.get(`/v1/purchasing/reorder-report?demand_window=${value}`),
          400,
          'parameter_invalid',
          {
            param: 'demand_window',
          },
        );
      }
      expectError(
        await live.get('/v1/purchasing/reorder-report?location_id=nope'),
        400,
        'parameter_invalid',
        {
          param: 'location_id',
        },
      );
      expectError(await live.get('/v1/purchasing/reorder-report?limit=101'), 400, 'parameter_invalid', {
        param: 'limit',
      });
      expectError(
        await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/purchasing/reorder-report'),
        403,
        'insufficient_scope',
        { required: 'purchasing:read' },
      );
    });

    it('gates stock events on the computed reorder point when none is set', async () => {
      const lowBefore = await balanceEvents(app, 'inventory.low_stock', balanceId);
      // 90-day demand 0.3333/day, lead time 10, safety stock 5: computed reorder point 9; 10 on hand.
      await stock(p, -2, 1);
      expect(await balanceEvents(app, 'inventory.low_stock', balanceId)).toBe(lowBefore + 1);
      const row = await rowOf('');
      expect(row).toMatchObject({
        on_hand: 8,
        reorder_point: 9,
        reorder_point_source: 'computed',
        below_reorder_point: true,
      });
      await stock(p, 2, 1);
    });

    it('shows only the caller entity and mode', async () => {
      const foreign = await other
        .get(`/v1/purchasing/reorder-report?vendor_account_id=${vendor}`)
        .expect(200);
      expect(foreign.body.data).toEqual([]);
      const testMode = await test.get(`/v1/purchasing/reorder-report?limit=100`).expect(200);
      expect(testMode.body.data.map((r: { id: string }) => r.id)).not.toContain(balanceId);
    });
  });
});

describe('QA seed fixtures of replenishment', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('kit_product_id: a kit with two components and a posted build', async () => {
    const kit = app.seed.fixtures.kit_product_id as string;
    expect((await live.get(`/v1/products/${kit}`).expect(200)).body.type).toBe('kit');
    const components = await live.get(`/v1/products/${kit}/components`).expect(200);
    expect(components.body.data).toHaveLength(2);
    const builds = await live.get('/v1/inventory/builds').expect(200);
    expect(builds.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ kit_product_id: kit, status: 'posted' })]),
    );
  });

  it('reorder_product_id: reorder point, preferred vendor with order_multiple, four different run rates', async () => {
    const product = app.seed.fixtures.reorder_product_id as string;
    const vendors = await live.get(`/v1/products/${product}/vendors`).expect(200);
    expect(vendors.body.data[0]).toMatchObject({ is_preferred: true, order_multiple: 24 });
    const balance = (await live.get(`/v1/inventory/balances?product_id=${product}`).expect(200)).body.data[0];
    expect(balance.reorder_point).toBe(60);
    const detail = (await live.get(`/v1/inventory/balances/${balance.id}`).expect(200)).body;
    // The seeded history (seedHistory): 20 units shipped 0, 10 and 20 days ago; 10 units every
    // 10 days from 30 to 80 days ago; 6 every 10 days from 90 to 170; 7 every 20 days from 180
    // to 360; 1 at 380 and 1 at 395 days ago. A window of N days counts what shipped less than
    // N days ago:
    //   30:  3·20                     =  60 units /  30 = 2
    //   90:  60 + 6·10                = 120 units /  90 = 1.33333 -> 1.3333
    //   180: 120 + 9·6                = 174 units / 180 = 0.96667 -> 0.9667
    //   365: 174 + 10·7 (380, 395 out) = 244 units / 365 = 0.66849 -> 0.6685
    expect(detail).toMatchObject({
      run_rate_30: 2,
      run_rate_90: 1.3333,
      run_rate_180: 0.9667,
      run_rate_365: 0.6685,
      demand_basis: 'sales',
    });
    // 0.4·2 + 0.3·1.3333 + 0.2·0.9667 + 0.1·0.6685 = 1.46018 -> 1.4602
    expect(detail.blended_daily).toBe(1.4602);
    expect((await live.get(`/v1/products/${product}`).expect(200)).body.demand_avg_per_day).toBe(1.4602);
    const report = await live
      .get(
        `/v1/purchasing/reorder-report?vendor_account_id=${vendors.body.data[0].vendor_account_id}&demand_window=365`,
      )
      .expect(200);
    expect(report.body.data[0]).toMatchObject({
      product_id: product,
      daily_demand: 0.6685,
      order_multiple: 24,
    });
  });
});
