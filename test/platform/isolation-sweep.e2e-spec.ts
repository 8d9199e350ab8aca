import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { RouteInfo, RouteRegistry } from '#platform/http/route-registry';
import { tenantRowsFingerprint } from '../support/database';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Tenant and mode isolation, generated from the app's route list (so a new route is swept without
 * a new test): every route with an id in its path is called with the ids of the primary entity's
 * live records by the other entity's key (on its own path: 404) and by the primary entity's
 * test-mode key (404); every route under /entities/:entity_id by the other entity's key on the
 * primary entity's path (403). A write carries a valid body, so the only reason left to refuse it
 * is the other tenant or mode: 400 counts as a failure, and the same body sent by the owner to an
 * id that does not exist must answer 404 (the body passed validation and only the lookup refused).
 * Reads are also sent by the owner first, who must get 200 (the ids are real); then a fingerprint of
 * every row of the primary entity is taken, and after the other keys' calls it is what it was.
 * Records of the kinds the QA seed has none of are made for the primary entity in beforeAll.
 *
 * Two explicit tables keep the sweep honest as routes are added:
 * - BODIES: the body of every write route with an id whose operation takes one. A new route
 *   without an entry fails the first test, which lists every such route by name.
 * - UNREACHABLE: routes with an id that the sweep cannot call, each with the reason. Every other
 *   route with an id must be reached; the second test lists those that were not.
 */

type Client = ReturnType<typeof api>;
type Body = Record<string, unknown>;
/** Ids of the caller's own records that a body refers to (never the path's), per scope. */
interface Refs {
  tag: string;
  account: string;
  otherAccount: string;
  product: string;
}
type BodyFixture = Body | ((refs: Refs) => Body);

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The body of each write route with an id whose operation declares a request body, valid for its
 * DTO. Ids in a body are the caller's own (Refs) or ids that a lookup would miss (a random UUID),
 * so that the path's record is what decides. Keyed by `METHOD path` as the app lists the route.
 */
const BODIES: Record<string, BodyFixture> = {
  'POST /v1/accounting/bank-transactions/:id/match-deposit-to-invoices': (r) => ({
    account_id: r.account,
    applications: [{ invoice_id: randomUUID(), amount: 1 }],
  }),
  'PATCH /v1/accounting/ledger-accounts/:id': { description: 'sweep' },
  'PATCH /v1/accounts/:id': { name: 'Sweep Co' },
  'POST /v1/accounts/:id/addresses': {
    line1: '1 Main St',
    city: 'Springfield',
    country: 'US',
    type: 'billing',
  },
  'PATCH /v1/accounts/:id/addresses/:address_id': { city: 'Shelbyville' },
  'POST /v1/accounts/:id/contacts': { name: 'Sweep Contact' },
  'PATCH /v1/accounts/:id/contacts/:contact_id': { name: 'Sweep Contact' },
  'POST /v1/accounts/:id/merge': (r) => ({ source_account_id: r.otherAccount }),
  'POST /v1/accounts/:id/payment-methods': { type: 'other', description: 'Sweep cheque' },
  'PATCH /v1/accounts/:id/payment-methods/:pm_id': { is_default: true },
  'POST /v1/accounts/:id/tags': (r) => ({ tag_id: r.tag }),
  'PATCH /v1/channel_listings/:id': { price: 12.5 },
  'POST /v1/channel_listings/:id/sync': {},
  'PATCH /v1/entities/:entity_id/webhook_endpoints/:id': { description: 'sweep' },
  'POST /v1/entities/:entity_id/webhook_endpoints/:id/recover': { since: '2026-01-01T00:00:00.000Z' },
  'POST /v1/fixed_assets/:id/depreciate': { through_date: today() },
  'POST /v1/fixed_assets/:id/impairments': { amount: 1 },
  'POST /v1/fixed_assets/:id/recoveries': { amount: 1 },
  'POST /v1/fixed_assets/:id/revaluations': { fair_value: 1 },
  'PATCH /v1/inventory/balances/:id': { safety_stock: 1 },
  'PATCH /v1/inventory/serials/:id': { lot_number: 'SWEEP' },
  'PATCH /v1/integrations/:id': { name: 'Sweep shop' },
  'PATCH /v1/journal-entries/:id': { description: 'sweep' },
  'POST /v1/journal-entries/:id/reject': { rejection_reason: 'sweep' },
  'POST /v1/journal-entries/:id/reverse': {},
  'PATCH /v1/locations/:id': { name: 'Sweep location' },
  'PATCH /v1/orders/:id': { notes: 'sweep' },
  'POST /v1/orders/:id/cancel': {},
  'POST /v1/orders/:id/close': {},
  'POST /v1/orders/:id/confirm': {},
  'POST /v1/orders/:id/convert': {},
  'POST /v1/orders/:id/customer-acknowledge-revision': {},
  'POST /v1/orders/:id/lines': { description: 'Sweep line', quantity: 1, unit_price: 1 },
  'PATCH /v1/orders/:id/lines/:line_id': { quantity: 2 },
  'POST /v1/orders/:id/lines/:line_id/allocate-serials': { serial_numbers: ['SWEEP-1'] },
  'POST /v1/orders/:id/lines/:line_id/deallocate-serials': { serial_numbers: ['SWEEP-1'] },
  'POST /v1/orders/:id/payments': { method: 'cash', amount: 1 },
  'POST /v1/orders/:id/send': {},
  'POST /v1/orders/:id/tags': (r) => ({ tag_id: r.tag }),
  'POST /v1/orders/:id/void': {},
  'PATCH /v1/packages/:id': { notes: 'sweep' },
  'POST /v1/packages/:id/buy-label': { rate_object_id: 'rate_sweep' },
  'POST /v1/packages/:id/deliver': {},
  'POST /v1/packages/:id/pack': {},
  'POST /v1/packages/:id/ship': {},
  'POST /v1/packages/:id/void': {},
  'PATCH /v1/payment-terms/:id': { name: 'Sweep terms' },
  'POST /v1/payments/:id/refunds': { amount: 1 },
  'PATCH /v1/pricing-levels/:id': { name: 'Sweep level' },
  'PATCH /v1/pricing-policies/:id': { name: 'Sweep policy' },
  'PATCH /v1/product-categories/:id': { description: 'sweep' },
  'PATCH /v1/product_categories/:id': { description: 'sweep' },
  'PATCH /v1/products/:id': { description: 'sweep' },
  'POST /v1/products/:id/components': (r) => ({ component_product_id: r.product, quantity: 1 }),
  'PATCH /v1/products/:id/components/:component_id': { quantity: 2 },
  'POST /v1/products/:id/restore': {},
  'POST /v1/products/:id/tags': (r) => ({ tag_id: r.tag }),
  'POST /v1/products/:id/variants': { sku: `SWEEP-${randomUUID().slice(0, 8)}`, name: 'Sweep variant' },
  'POST /v1/products/:id/vendors': (r) => ({ vendor_account_id: r.account }),
  'PATCH /v1/products/:id/vendors/:vendor_id': { vendor_sku: 'SWEEP' },
  'PATCH /v1/products/:product_id/variants/:id': { name: 'Sweep variant' },
  'POST /v1/purchase-orders/:id/cancel': {},
  'POST /v1/purchase-orders/:id/confirm': {},
  'POST /v1/purchase-orders/:id/receive': {
    lines: [{ order_item_id: randomUUID(), quantity: 1, location_id: randomUUID() }],
  },
  'PATCH /v1/recurring-journal-entries/:id': { description: 'sweep' },
  'POST /v1/returns/:id/refund': { amount: 1, method: 'customer_credit' },
  'POST /v1/returns/:id/receive': {
    package_id: randomUUID(),
    items: [{ package_item_id: randomUUID(), quantity: 1 }],
  },
  'PATCH /v1/sales-channels/:id': { name: 'Sweep channel' },
  'PATCH /v1/tags/:id': { name: 'sweep' },
  'PATCH /v1/units-of-measure/:id': { name: 'Sweep unit' },
  'POST /v1/vendor-bills/:id/payments': { amount: 1 },
  'PATCH /v1/webhook_endpoints/:id': { description: 'sweep' },
  'POST /v1/webhook_endpoints/:id/recover': { since: '2026-01-01T00:00:00.000Z' },
};

/**
 * Routes with an id that the sweep does not call, each with the specific reason it cannot. Empty:
 * beforeAll makes a record of every kind the QA seed lacks, so a new route with an id gets one there
 * rather than an entry here. The first test refuses an entry that names no route with an id.
 */
const UNREACHABLE: Record<string, string> = {};

/**
 * Where the ids of a path parameter come from when the list at the path's prefix is not the
 * place (no list route there, or a list of another name): prefix pattern -> list path.
 */
const ID_LISTS: Record<string, string> = {
  '/v1/returns': '/v1/orders?document_type=return',
};

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const params = (route: RouteInfo) => route.path.split('/').filter((s) => s.startsWith(':'));
const hasIds = (route: RouteInfo) => params(route).some((p) => p !== ':entity_id');
const label = (route: RouteInfo) => `${route.method} ${route.path}`;

describe('cross-tenant and cross-mode sweep', () => {
  let app: TestApp;
  let routes: RouteInfo[];
  let entityA: string;
  let entityB: string;
  let owner: Client;
  /**
   * Ids of the primary entity's records made (or picked from the QA seed) for the sweep, by the
   * path prefix they fill (`/v1/orders/<id>/lines` for an order's lines): tried before the list at
   * that prefix, and the only source where no route lists them (order lines, imports) or the list
   * takes no `limit` (variants, serials).
   */
  const made = new Map<string, string[]>();

  /** Operations of the served description that declare a request body. */
  const takesBody = (route: RouteInfo) => {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const operation = (
      app.openapi as unknown as { paths: Record<string, Record<string, { requestBody?: unknown }>> }
    ).paths[path]?.[route.method.toLowerCase()];
    return Boolean(operation?.requestBody);
  };

  beforeAll(async () => {
    app = await startTestApp();
    routes = app
      .get(RouteRegistry)
      .routes()
      .filter((r) => !r.public && r.path.startsWith('/v1/') && params(r).length > 0);
    entityA = app.seed.entities.primary.id;
    entityB = app.seed.entities.secondary.id;
    owner = api(app, app.seed.entities.primary.keys.live);
    await makeRecords();
  });
  afterAll(() => app.close());

  /**
   * Makes, as the primary entity, one record of every kind that the QA seed has none of (or none
   * a list finds), and registers the ids in `made`. One at a time: several of them post to the
   * ledger, and the run stays the same from one time to the next.
   */
  async function makeRecords(): Promise<void> {
    const register = (prefix: string, ...ids: string[]) =>
      made.set(prefix, [...(made.get(prefix) ?? []), ...ids]);
    const create = async (path: string, body: Body) => (await owner.post(path).send(body).expect(201)).body;
    const code = () => `SWEEP${randomUUID().slice(0, 8)}`;
    const fixtures = app.seed.fixtures as {
      sales_order: { id: string; items: { id: string; product_id: string }[] };
      serial_order: { id: string; item_id: string; product_id: string };
      shipped_package_id: string;
      ledger_accounts: Record<string, string>;
    };

    // No route lists imports.
    const imported = await create(`/v1/entities/${entityA}/migration/imports`, {
      resource: 'tags',
      records: [{ external_id: 'sweep-1', name: 'swept import' }],
    });
    register(`/v1/entities/${entityA}/migration/imports`, imported.id);
    // A product with a variant (the product list need not show it on its first page; the variant
    // list takes no page size).
    const parent = await create('/v1/products', { sku: code(), name: 'Sweep variant parent' });
    const variant = await create(`/v1/products/${parent.id}/variants`, {
      sku: code(),
      name: 'Sweep variant',
    });
    register('/v1/products', parent.id);
    register(`/v1/products/${parent.id}/variants`, variant.id);
    await create('/v1/product_categories', { name: 'Sweep category' });
    await create('/v1/payment-terms', { name: 'Sweep terms', code: code(), net_days: 30 });
    await create('/v1/units-of-measure', { name: 'Sweep unit', code: code(), precision: 2 });
    await create('/v1/sales-channels', { name: 'Sweep channel', code: code(), kind: 'storefront' });
    await create('/v1/pricing-levels', { name: 'Sweep level', code: code(), percent_adjustment: -5 });
    // A payment of an issued invoice (one untaxed line of 10).
    const payer = await create('/v1/accounts', { name: 'Sweep payer' });
    const invoice = await create('/v1/orders', {
      document_type: 'invoice',
      account_id: payer.id,
      lines: [{ description: 'Sweep service', quantity: 1, unit_price: 10 }],
    });
    await owner.post(`/v1/orders/${invoice.id}/confirm`).expect(200);
    await create(`/v1/orders/${invoice.id}/payments`, { method: 'cash', amount: 10 });
    // A credit transaction: a deposit of 15 pays a second invoice of 10, the rest is credit.
    const credited = await create('/v1/orders', {
      document_type: 'invoice',
      account_id: payer.id,
      lines: [{ description: 'Sweep service', quantity: 1, unit_price: 10 }],
    });
    await owner.post(`/v1/orders/${credited.id}/confirm`).expect(200);
    const businessDay = (await owner.get('/v1/accounting/settings').expect(200)).body.current_business_day;
    const deposit = await create('/v1/accounting/bank-transactions', {
      bank_account_id: fixtures.ledger_accounts.cash,
      type: 'deposit',
      amount: 15,
      transaction_date: businessDay,
      reference: code(),
    });
    await owner
      .post(`/v1/accounting/bank-transactions/${deposit.id}/match-deposit-to-invoices`)
      .send({
        account_id: payer.id,
        applications: [{ invoice_id: credited.id, amount: 10 }],
        route_unapplied: 'customer_credit',
      })
      .expect(200);
    const [credit] = (await owner.get(`/v1/accounts/${payer.id}/credit-transactions`).expect(200)).body.data;
    register('/v1/accounts', payer.id);
    register(`/v1/accounts/${payer.id}/credit-transactions`, credit.id);
    await create('/v1/vendor-bills', {
      vendor_name: 'Sweep Supplies',
      amount: 10,
      debit_account_id: fixtures.ledger_accounts.expense,
    });
    // A return of one unit of the seed's shipped package.
    const shipped = (await owner.get(`/v1/packages/${fixtures.shipped_package_id}`).expect(200)).body;
    const shippedOrder = (await owner.get(`/v1/orders/${shipped.order_id}`).expect(200)).body;
    await create('/v1/returns', {
      account_id: shippedOrder.account_id,
      order_id: shipped.order_id,
      lines: [{ order_item_id: shipped.items[0].order_item_id, quantity: 1 }],
      reason: 'Sweep',
    });
    // The serials of the seed's serial order (the serial list pages by number, not by cursor).
    const serials = (
      await owner.get(`/v1/inventory/serials?product_id=${fixtures.serial_order.product_id}`).expect(200)
    ).body.data as { id: string }[];
    register('/v1/inventory/serials', ...serials.map((serial) => serial.id));
    // Order lines have no list route: the seed's sales order and serial order name theirs.
    const { sales_order: salesOrder, serial_order: serialOrder } = fixtures;
    register('/v1/orders', salesOrder.id, serialOrder.id);
    register(`/v1/orders/${salesOrder.id}/lines`, ...salesOrder.items.map((i) => i.id));
    register(`/v1/orders/${serialOrder.id}/lines`, serialOrder.item_id);
    // A package still being packed, whose rates can be quoted (the seed's package has shipped).
    const pkg = await create('/v1/packages', {
      order_id: salesOrder.id,
      items: [{ order_item_id: salesOrder.items[0].id, quantity: 1 }],
    });
    register('/v1/packages', pkg.id);
    // A webhook endpoint with a delivery (the test event, left pending: no dispatcher runs here).
    const endpoint = await create(`/v1/entities/${entityA}/webhook_endpoints`, {
      url: 'http://127.0.0.1:9/sweep',
      enabled_events: ['order.confirmed'],
      description: 'Sweep',
    });
    await owner.post(`/v1/entities/${entityA}/webhook_endpoints/${endpoint.id}/test`).expect(200);
  }

  /** The ids a body of this client's scope refers to: its own first records, made when missing. */
  async function refsOf(client: Client): Promise<Refs> {
    const first = async (list: string, make: () => Promise<string>) =>
      ((await client.get(`${list}?limit=1`).expect(200)).body.data[0]?.id as string | undefined) ?? make();
    const made = async (path: string, body: Body) => (await client.post(path).send(body).expect(201)).body.id;
    const account = await first('/v1/accounts', () => made('/v1/accounts', { name: 'Sweep ref' }));
    return {
      tag: await first('/v1/tags', () => made('/v1/tags', { name: `sweep ${randomUUID()}` })),
      account,
      otherAccount: await made('/v1/accounts', { name: 'Sweep merge source' }),
      product: await made('/v1/products', { sku: `SWEEP-${randomUUID().slice(0, 8)}`, name: 'Sweep ref' }),
    };
  }

  /**
   * Fills a path's parameters with live ids of the primary entity: for each, the records listed at
   * the prefix (or ID_LISTS), trying each until the rest of the path resolves; undefined when none does.
   */
  async function realPath(route: RouteInfo, lists: Map<string, string[]>): Promise<string | undefined> {
    const segments = route.path.split('/');
    const resolve = async (i: number, filled: string[]): Promise<string[] | undefined> => {
      // A read must answer the owner 200 at these ids (a record in a state where it answers).
      if (i === segments.length)
        return route.method !== 'GET' || (await ownerReads(filled.join('/'))) ? filled : undefined;
      const segment = segments[i];
      if (!segment.startsWith(':')) return resolve(i + 1, [...filled, segment]);
      if (segment === ':entity_id') return resolve(i + 1, [...filled, entityA]);
      const pattern = segments.slice(0, i).join('/');
      const prefix = filled.join('/');
      const ids = await idsAt(pattern, prefix, segment, lists);
      for (const id of ids) {
        const done = await resolve(i + 1, [...filled, id]);
        if (done) return done;
      }
      return undefined;
    };
    return (await resolve(0, []))?.join('/');
  }

  /** The owner's read answers 200. Raw HTTP: a probe of candidate ids, not a claim on the answer. */
  async function ownerReads(path: string): Promise<boolean> {
    const res = await request(app.server)
      .get(path)
      .set('Authorization', `Bearer ${app.seed.entities.primary.keys.live}`);
    return res.status === 200;
  }

  async function idsAt(pattern: string, prefix: string, param: string, lists: Map<string, string[]>) {
    const own = made.get(prefix) ?? [];
    const listed = await listedAt(pattern, prefix, param, lists);
    return [...own, ...listed.filter((id) => !own.includes(id))].slice(0, 20);
  }

  async function listedAt(pattern: string, prefix: string, param: string, lists: Map<string, string[]>) {
    const listed = ID_LISTS[pattern]?.replace(':entity_id', entityA);
    const candidates = listed
      ? [listed]
      : [prefix, `/v1/${param.slice(1).replace(/_id$/, '')}s`].filter((c) => c !== '/v1/ids');
    for (const candidate of candidates) {
      if (!lists.has(candidate)) {
        const res = await owner.get(`${candidate}${candidate.includes('?') ? '&' : '?'}limit=20`);
        lists.set(candidate, res.status === 200 ? (res.body.data as { id: string }[]).map((r) => r.id) : []);
      }
      if (lists.get(candidate)!.length > 0) return lists.get(candidate)!.slice(0, 20);
    }
    return [];
  }

  it('has a body for every write route with an id that takes one', () => {
    const missing = routes
      .filter((r) => hasIds(r) && WRITES.has(r.method) && takesBody(r) && !(label(r) in BODIES))
      .filter((r) => !(label(r) in UNREACHABLE))
      .map(label);
    // A route listed here needs an entry in BODIES (or, failing that, UNREACHABLE with why).
    expect(missing).toEqual([]);
    const stale = Object.keys(BODIES).filter((key) => !routes.some((r) => label(r) === key));
    expect(stale).toEqual([]);
    const staleUnreachable = Object.keys(UNREACHABLE).filter(
      (key) => !routes.some((r) => label(r) === key && hasIds(r)),
    );
    expect(staleUnreachable).toEqual([]);
  });

  it('refuses every route with another entity’s or mode’s key and changes no row of the entity', async () => {
    const lists = new Map<string, string[]>();
    const paths = new Map<RouteInfo, string | undefined>();
    for (const route of routes) paths.set(route, await realPath(route, lists));
    const foreign = api(app, app.seed.entities.secondary.keys.live);
    const otherMode = api(app, app.seed.entities.primary.keys.test);
    const refs = new Map<Client, Refs>();
    for (const client of [owner, foreign, otherMode]) refs.set(client, await refsOf(client));

    const failures: string[] = [];
    const unreached: string[] = [];
    const call = (client: Client, route: RouteInfo, path: string) => {
      const req = client[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put'](path);
      const fixture = BODIES[label(route)];
      if (fixture === undefined) return req;
      return req.send(typeof fixture === 'function' ? fixture(refs.get(client)!) : fixture);
    };
    const expectStatus = async (
      what: string,
      res: Promise<{ status: number; body: Body }>,
      status: number,
    ) => {
      // A status or an answer off the OpenAPI description is listed (not thrown), so one run
      // names every failing route.
      const answer = await res.catch((error: Error) => error);
      if (answer instanceof Error)
        failures.push(`${what}: ${answer.message.split('\n').slice(0, 2).join(' ')}`);
      else if (answer.status !== status)
        failures.push(`${what}: ${answer.status} ${String(answer.body?.code)} (wanted ${status})`);
    };

    const swept: { route: RouteInfo; path: string }[] = [];
    for (const route of routes) {
      if (label(route) in UNREACHABLE) continue;
      if (WRITES.has(route.method) && hasIds(route) && takesBody(route) && !(label(route) in BODIES))
        continue;
      const path = paths.get(route);
      if (path) swept.push({ route, path });
      else unreached.push(label(route));
    }
    // The owner reads each record: the ids are real. This comes before the fingerprint, as the
    // owner's read may write (quoting a package's rates stores them); the others' calls may not.
    for (const { route, path } of swept)
      if (route.method === 'GET' && hasIds(route))
        await expectStatus(`${label(route)} (owner)`, call(owner, route, path), 200);

    const before = await tenantRowsFingerprint(app, entityA);
    for (const { route, path } of swept) {
      if (route.path.includes(':entity_id')) {
        // Another entity's key on this entity's path: 403, whatever the id.
        await expectStatus(`${label(route)} (other entity's key)`, call(foreign, route, path), 403);
      }
      if (!hasIds(route)) continue;
      // The other entity's key on its own path with this entity's ids: 404.
      const ownPath = path.replace(`/entities/${entityA}/`, `/entities/${entityB}/`);
      await expectStatus(`${label(route)} (other entity)`, call(foreign, route, ownPath), 404);
      // The same entity's test-mode key with live ids: 404.
      await expectStatus(`${label(route)} (other mode)`, call(otherMode, route, path), 404);
      if (WRITES.has(route.method)) {
        // The owner's body on ids that do not exist: 404, so the body passed validation.
        const missing = route.path
          .split('/')
          .map((s) => (s === ':entity_id' ? entityA : s.startsWith(':') ? randomUUID() : s))
          .join('/');
        await expectStatus(`${label(route)} (owner, no such id)`, call(owner, route, missing), 404);
      }
    }

    expect(failures).toEqual([]);
    // Every route with an id is reached, but those UNREACHABLE names with a reason.
    expect(unreached).toEqual([]);
    expect(await tenantRowsFingerprint(app, entityA)).toEqual(before);
  });
});
