import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, fixturesOf, later } from './support';

interface Rate {
  rate_object_id: string;
  package_id: string;
  carrier: string;
  service_level: string;
  amount: number;
  insurance_fee: number;
  expires_at: string;
}

/** What the platform writes on any request: the key's last use and its rate-limit window. */
const REQUEST_BOOKKEEPING = new Set(['api_keys', 'rate_limit_windows']);

/** Every table's row count and a digest of its rows, by table name. */
async function tableDigests(app: TestApp): Promise<Record<string, string>> {
  const { rows: tables } = await app.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await app.db.query<{ n: number; digest: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${name}" t`,
    );
    digests[name] = `${rows[0].n}:${rows[0].digest ?? ''}`;
  }
  return digests;
}

describe('shipping rates', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
  });
  afterAll(() => app.close());

  const packageOf = async (orderId: string, weight = 2) =>
    (await live.post('/v1/packages').send({ order_id: orderId, weight, items: [] }).expect(201)).body as {
      id: string;
      order_id: string;
    };
  const widgetOrder = () => confirmedOrder(live, fx.accountId, [{ product_id: fx.productId, quantity: 2 }]);
  const ratesOf = async (packageId: string) =>
    (await live.get(`/v1/packages/${packageId}/rates`).expect(200)).body.data as Rate[];

  it('quotes without writing: every table is unchanged after two GETs', async () => {
    const order = await widgetOrder();
    const pkg = await packageOf(order.id);
    const before = await tableDigests(app);
    const first = await ratesOf(pkg.id);
    const second = await ratesOf(pkg.id);
    const after = await tableDigests(app);
    const changed = Object.keys(after).filter((t) => after[t] !== before[t] && !REQUEST_BOOKKEEPING.has(t));
    expect(changed).toEqual([]);
    expect(first.length).toBe(9);
    expect(first.every((r) => r.package_id === pkg.id)).toBe(true);
    // The same terms each time; the ids differ only when a minute turned between the two quotes.
    const terms = (rates: Rate[]) => rates.map(({ rate_object_id: _id, expires_at: _at, ...rest }) => rest);
    expect(terms(second)).toEqual(terms(first));
  });

  it('answers each documented status: 200, 304, 400, 401, 403, 404 and 409', async () => {
    const order = await widgetOrder();
    const pkg = await packageOf(order.id);
    const ok = await live.get(`/v1/packages/${pkg.id}/rates`).expect(200);
    // The same quote within the minute: the ETag still holds (one retry across a minute's turn).
    let notModified = await live.get(`/v1/packages/${pkg.id}/rates`).set('If-None-Match', ok.headers.etag);
    if (notModified.status === 200) {
      const again = await live.get(`/v1/packages/${pkg.id}/rates`).expect(200);
      notModified = await live.get(`/v1/packages/${pkg.id}/rates`).set('If-None-Match', again.headers.etag);
    }
    expect(notModified.status).toBe(304);
    expectError(await live.get(`/v1/packages/${pkg.id}/rates?expand[]=x`), 400, 'invalid_expand');
    expectError(await api(app).get(`/v1/packages/${pkg.id}/rates`), 401, 'invalid_api_key');
    const noScope = (
      await live
        .post(`/v1/entities/${app.seed.entities.primary.id}/api_keys`)
        .send({ name: 'tags only', mode: 'live', scopes: ['tags:read'] })
        .expect(201)
    ).body.secret as string;
    expectError(await api(app, noScope).get(`/v1/packages/${pkg.id}/rates`), 403, 'insufficient_scope');
    expectError(await live.get('/v1/packages/5f0c9a57-3d7e-4c51-9b1e-7a3f1c2d4e5f/rates'), 404, 'not_found');
    const rate = (await ratesOf(pkg.id)).find((r) => r.carrier === 'usps')!;
    await live
      .post(`/v1/packages/${pkg.id}/buy-label`)
      .send({ rate_object_id: rate.rate_object_id })
      .expect(200);
    const labeled = await live.get(`/v1/packages/${pkg.id}/rates`);
    expectError(labeled, 409, 'invalid_state');
    expect(labeled.body.hint).toContain("'labeled'");
  });

  it('buys at the quoted terms; a changed, moved or expired rate buys nothing', async () => {
    const order = await widgetOrder();
    const pkg = await packageOf(order.id, 3);
    const usps = (await ratesOf(pkg.id)).find((r) => r.carrier === 'usps' && r.service_level === 'priority')!;
    // The sandbox's USPS Priority: 7.90 + 0.95 per billable pound (3 lb).
    expect(usps.amount).toBe(10.75);

    // The rate's amount changed by the client: its signature no longer holds.
    const [encoded, mac] = usps.rate_object_id.slice('rate_'.length).split('.');
    const terms = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown[];
    terms[3] = '0.01';
    const cheaper = `rate_${Buffer.from(JSON.stringify(terms)).toString('base64url')}.${mac}`;
    const forged = await live.post(`/v1/packages/${pkg.id}/buy-label`).send({ rate_object_id: cheaper });
    expectError(forged, 422, 'label_purchase_failed', { param: 'rate_object_id' });
    expect(forged.body.hint).toContain('Unknown rate_object_id');
    expect(forged.body.package).toMatchObject({ id: pkg.id, status: 'packing', label: null });

    // A rate of this order does not buy a label for a package of another order.
    const otherOrder = await widgetOrder();
    const other = await packageOf(otherOrder.id, 3);
    const moved = await live
      .post(`/v1/packages/${other.id}/buy-label`)
      .send({ rate_object_id: usps.rate_object_id });
    expectError(moved, 422, 'label_purchase_failed');
    expect(moved.body.hint).toContain('Unknown rate_object_id');

    // After its 24 hours the rate is refused as expired.
    const expired = await later(25, () =>
      live.post(`/v1/packages/${pkg.id}/buy-label`).send({ rate_object_id: usps.rate_object_id }),
    );
    expectError(expired, 422, 'label_purchase_failed');
    expect(expired.body.hint).toContain('expired');

    const bought = (
      await live
        .post(`/v1/packages/${pkg.id}/buy-label`)
        .send({ rate_object_id: usps.rate_object_id })
        .expect(200)
    ).body;
    expect(bought).toMatchObject({
      status: 'labeled',
      carrier: 'usps',
      ship_cost: 10.75,
      label: { rate_object_id: usps.rate_object_id, amount: 10.75, service_level: 'priority' },
    });
  });
});
