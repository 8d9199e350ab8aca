import { randomUUID } from 'node:crypto';

/**
 * Live records for requests generated from the description: the QA seed's fixtures plus records
 * made here of the kinds the seed has none of, so that a path id or a reference in a body names a
 * record of the primary entity. Works over any HTTP client (supertest in the e2e suite, fetch in
 * the conformance run).
 */

export interface Answer {
  status: number;
  body: unknown;
}
export type Send = (method: string, path: string, body?: unknown) => Promise<Answer>;

export interface SeedLike {
  entities: { primary: { id: string } };
  fixtures: Record<string, unknown>;
}

export interface LiveRecords {
  entityId: string;
  /** Ids of records made (or picked from the seed) for a path, by the prefix they fill. */
  made: Map<string, string[]>;
  /** A live id for a uuid field of a body or query, by the field's name. */
  refs: Record<string, string>;
}

type Body = Record<string, unknown>;
interface Fixtures {
  account_id: string;
  payment_method_ids: string[];
  product_id: string;
  location_id: string;
  tag_id: string;
  pricing_policy_id: string;
  quote_id: string;
  purchase_order_id: string;
  sales_order: { id: string; items: { id: string; product_id: string }[] };
  serial_order: { id: string; item_id: string; product_id: string; serials: string[] };
  shipped_package_id: string;
  ledger_accounts: Record<string, string>;
  open_period: { id: string };
  bank_deposit: { id: string; account_id: string; invoices: { id: string }[] };
  fixed_asset_id: string;
  kit_product_id: string;
  integration_id?: string;
}

/** Creates what the seed lacks; a failure names the request that failed. */
export async function makeLiveRecords(
  send: Send,
  seed: SeedLike,
  options: { privateTargets: boolean } = { privateTargets: true },
): Promise<LiveRecords> {
  const entityId = seed.entities.primary.id;
  const f = seed.fixtures as unknown as Fixtures;
  const made = new Map<string, string[]>();
  const register = (prefix: string, ...ids: string[]) =>
    made.set(prefix, [...(made.get(prefix) ?? []), ...ids.filter((id) => !made.get(prefix)?.includes(id))]);
  const create = async (path: string, body: Body, status = 201): Promise<Body> => {
    const res = await send('POST', path, body);
    if (res.status !== status)
      throw new Error(`making live records: POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body;
  };
  const read = async (path: string): Promise<Body> => {
    const res = await send('GET', path);
    if (res.status !== 200) throw new Error(`making live records: GET ${path} answered ${res.status}`);
    return res.body as Body;
  };
  const code = () => `GEN${randomUUID().slice(0, 8).toUpperCase()}`;
  const id = (body: Body) => body.id as string;

  // Catalog: a product with a variant and a vendor (the seed's kit has components); a category.
  const parent = await create('/v1/products', { sku: code(), name: 'Generated parent' });
  const variant = await create(`/v1/products/${id(parent)}/variants`, {
    sku: code(),
    name: 'Generated variant',
  });
  const vendorAccount = await create('/v1/accounts', { name: 'Generated vendor' });
  const vendor = await create(`/v1/products/${id(parent)}/vendors`, { vendor_account_id: id(vendorAccount) });
  register('/v1/products', id(parent), f.product_id);
  register(`/v1/products/${id(parent)}/variants`, id(variant));
  register(`/v1/products/${id(parent)}/vendors`, id(vendor));
  const category = await create('/v1/product_categories', { name: 'Generated category' });
  // Two of each reference list the seed has none of: one may be deleted before the other is used.
  for (const n of [1, 2]) {
    await create('/v1/product_categories', { name: `Generated category ${n}` });
    await create('/v1/payment-terms', { name: `Generated terms ${n}`, code: code(), net_days: 30 });
    await create('/v1/units-of-measure', { name: `Generated unit ${n}`, code: code(), precision: 2 });
    await create('/v1/sales-channels', { name: `Generated channel ${n}`, code: code(), kind: 'storefront' });
    await create('/v1/pricing-levels', {
      name: `Generated level ${n}`,
      code: code(),
      percent_adjustment: -5,
    });
  }
  const warehouse = await create('/v1/locations', {
    name: 'Generated warehouse',
    code: code(),
    type: 'warehouse',
  });

  // An account with an address, a contact and a payment method of its own; one to merge away.
  const account = await create('/v1/accounts', { name: 'Generated customer' });
  const address = await create(`/v1/accounts/${id(account)}/addresses`, {
    line1: '1 Main St',
    city: 'Springfield',
    country: 'US',
    type: 'billing',
  });
  const contact = await create(`/v1/accounts/${id(account)}/contacts`, { name: 'Generated contact' });
  const method = await create(`/v1/accounts/${id(account)}/payment-methods`, {
    type: 'other',
    description: 'Generated cheque',
  });
  const mergeSource = await create('/v1/accounts', { name: 'Generated merge source' });
  register('/v1/accounts', id(account), f.account_id);
  // The tag the tag routes attach (tag_id of a body) is the one their deletes detach.
  register(`/v1/products/${id(parent)}/tags`, f.tag_id);
  register(`/v1/accounts/${id(account)}/tags`, f.tag_id);
  register(`/v1/orders/${f.sales_order.id}/tags`, f.tag_id);
  register(`/v1/accounts/${id(account)}/addresses`, id(address));
  register(`/v1/accounts/${id(account)}/contacts`, id(contact));
  register(`/v1/accounts/${id(account)}/payment-methods`, id(method));

  // Orders: a paid invoice (a payment with a refundable amount) and a credit transaction.
  const invoice = await create('/v1/orders', {
    document_type: 'invoice',
    account_id: id(account),
    lines: [{ description: 'Generated service', quantity: 1, unit_price: 100 }],
  });
  await create(`/v1/orders/${id(invoice)}/confirm`, {}, 200);
  const payment = await create(`/v1/orders/${id(invoice)}/payments`, { method: 'cash', amount: 100 });
  register('/v1/payments', id(payment));
  const business = (await read('/v1/accounting/settings')).current_business_day as string;
  const credited = await create('/v1/orders', {
    document_type: 'invoice',
    account_id: id(account),
    lines: [{ description: 'Generated service', quantity: 1, unit_price: 10 }],
  });
  await create(`/v1/orders/${id(credited)}/confirm`, {}, 200);
  const deposit = await create('/v1/accounting/bank-transactions', {
    bank_account_id: f.ledger_accounts.cash,
    type: 'deposit',
    amount: 15,
    transaction_date: business,
    reference: code(),
  });
  await create(
    `/v1/accounting/bank-transactions/${id(deposit)}/match-deposit-to-invoices`,
    {
      account_id: id(account),
      applications: [{ invoice_id: id(credited), amount: 10 }],
      route_unapplied: 'customer_credit',
    },
    200,
  );
  const credits = (await read(`/v1/accounts/${id(account)}/credit-transactions`)).data as Body[];
  register(`/v1/accounts/${id(account)}/credit-transactions`, ...credits.map(id));
  // An unmatched deposit of the seed (its invoices still open) for match-deposit-to-invoices.
  register('/v1/accounting/bank-transactions', f.bank_deposit.id);

  // Order lines (no list route names them), the seed's orders first.
  register('/v1/orders', f.sales_order.id, f.serial_order.id, f.quote_id);
  register(`/v1/orders/${f.sales_order.id}/lines`, ...f.sales_order.items.map((i) => i.id));
  register(`/v1/orders/${f.serial_order.id}/lines`, f.serial_order.item_id);
  register('/v1/purchase-orders', f.purchase_order_id);
  // The storefront listing can be pushed (a marketplace one answers 501).
  const listings = f as unknown as { storefront_listing_id: string };
  register('/v1/channel_listings', listings.storefront_listing_id);

  // Fulfillment: a package being packed (rates can be quoted), and a return of a shipped unit.
  const pkg = await create('/v1/packages', {
    order_id: f.sales_order.id,
    items: [{ order_item_id: f.sales_order.items[0].id, quantity: 1 }],
  });
  register('/v1/packages', id(pkg), f.shipped_package_id);
  const shipped = await read(`/v1/packages/${f.shipped_package_id}`);
  const shippedOrder = await read(`/v1/orders/${shipped.order_id as string}`);
  const ret = await create('/v1/returns', {
    account_id: shippedOrder.account_id,
    order_id: shipped.order_id,
    lines: [{ order_item_id: (shipped.items as Body[])[0].order_item_id, quantity: 1 }],
    reason: 'Generated',
  });
  register('/v1/returns', id(ret));

  // Inventory: the serials of the serial order (their list pages by number).
  const serials = (await read(`/v1/inventory/serials?product_id=${f.serial_order.product_id}`))
    .data as Body[];
  register('/v1/inventory/serials', ...serials.map(id));
  register('/v1/products', f.kit_product_id);

  // Accounting: a draft journal entry, a vendor bill.
  const entry = await create('/v1/journal-entries', {
    entry_date: business,
    description: 'Generated entry',
    lines: [
      { account_id: f.ledger_accounts.expense, debit_amount: 5 },
      { account_id: f.ledger_accounts.cash, credit_amount: 5 },
    ],
  });
  register('/v1/journal-entries', id(entry));
  const bill = await create('/v1/vendor-bills', {
    vendor_name: 'Generated Supplies',
    amount: 10,
    debit_account_id: f.ledger_accounts.expense,
  });
  register('/v1/vendor-bills', id(bill));

  // Platform: an API key of its own (rotated and revoked here, never the run's key), a webhook
  // endpoint with a delivery, an import.
  const key = await create(`/v1/entities/${entityId}/api_keys`, {
    name: 'Generated key',
    scopes: ['orders:read'],
  });
  register(`/v1/entities/${entityId}/api_keys`, id(key));
  // One webhook endpoint per path form (each may be deleted), each with a delivery. A server that
  // refuses private targets (no WEBHOOK_ALLOW_PRIVATE_TARGETS) refuses these: then there is none.
  for (const prefix of [`/v1/entities/${entityId}/webhook_endpoints`, '/v1/webhook_endpoints']) {
    const res = await send('POST', prefix, {
      url: `http://127.0.0.1:9/generated-${made.size}`,
      enabled_events: ['order.confirmed'],
      description: 'Generated',
    });
    if (res.status !== 201 && options.privateTargets)
      throw new Error(`making live records: POST ${prefix} answered ${res.status}`);
    if (res.status !== 201) continue;
    const endpoint = res.body as Body;
    await create(`${prefix}/${id(endpoint)}/test`, {}, 200);
    register(prefix, id(endpoint));
  }
  const imported = await create(`/v1/entities/${entityId}/migration/imports`, {
    resource: 'tags',
    records: [{ external_id: code(), name: 'generated import' }],
  });
  register(`/v1/entities/${entityId}/migration/imports`, id(imported));

  const refs: Record<string, string> = {
    account_id: f.account_id,
    vendor_account_id: id(vendorAccount),
    source_account_id: id(mergeSource),
    product_id: f.product_id,
    component_product_id: f.product_id,
    kit_product_id: f.kit_product_id,
    box_product_id: f.product_id,
    variant_id: id(variant),
    category_id: id(category),
    product_category_id: id(category),
    parent_id: id(category),
    location_id: f.location_id,
    default_location_id: f.location_id,
    from_location_id: f.location_id,
    to_location_id: id(warehouse),
    tag_id: f.tag_id,
    payment_method_id: f.payment_method_ids[0],
    order_id: f.sales_order.id,
    order_item_id: f.sales_order.items[0].id,
    order_line_id: f.sales_order.items[0].id,
    package_id: f.shipped_package_id,
    invoice_id: f.bank_deposit.invoices[0].id,
    period_id: f.open_period.id,
    reverse_in_period_id: f.open_period.id,
    bank_account_id: f.ledger_accounts.cash,
    debit_account_id: f.ledger_accounts.expense,
    expense_account_id: f.ledger_accounts.expense,
    asset_account_id: f.ledger_accounts.inventory,
    clearing_account_id: f.ledger_accounts.receivables,
    fee_account_id: f.ledger_accounts.expense,
    depreciation_account_id: f.ledger_accounts.expense,
    ledger_account_id: f.ledger_accounts.expense,
    api_key_id: id(key),
  };
  if (f.integration_id) refs.integration_id = f.integration_id;
  return { entityId, made, refs };
}

/** Where a path parameter's ids are listed when the list at its prefix is not the place. */
const ID_LISTS: Record<string, string> = {
  '/v1/returns': '/v1/orders?document_type=return&limit=20',
};

/**
 * Paths of `template` with every parameter filled with live ids of the primary entity, best
 * first: ids made for the prefix, then those listed at it (or at the parameter's own list). A
 * read is kept only when the run's key reads it (200). At most `max` paths.
 */
export async function livePaths(
  send: Send,
  records: LiveRecords,
  template: string,
  method: string,
  max = 6,
): Promise<string[]> {
  const segments = template.split('/');
  const lists = new Map<string, string[]>();
  const found: string[] = [];
  let probes = 0;
  const idsAt = async (prefix: string, param: string): Promise<string[]> => {
    const own = records.made.get(prefix) ?? [];
    // The run's own API key is never offered to rotate or revoke.
    if (prefix.endsWith('/api_keys')) return own;
    // An order's lines have no list route, and an edit of the order may replace them: read them.
    if (/^\/v1\/orders\/[^/]+\/lines$/.test(prefix)) {
      const order = await send('GET', prefix.replace(/\/lines$/, ''));
      const lines = (order.body as { lines?: { id: string }[] } | undefined)?.lines;
      return order.status === 200 && lines ? lines.map((line) => line.id) : [];
    }
    const candidates = ID_LISTS[prefix]
      ? [ID_LISTS[prefix]]
      : [`${prefix}?limit=20`, `/v1/${param.replace(/_id$/, '')}s?limit=20`];
    let listed: string[] = [];
    for (const candidate of candidates) {
      if (candidate === '/v1/ids?limit=20') continue;
      if (!lists.has(candidate)) {
        const res = await send('GET', candidate);
        const data = (res.body as { data?: { id?: string }[] } | undefined)?.data;
        lists.set(candidate, res.status === 200 && Array.isArray(data) ? data.map((r) => String(r.id)) : []);
      }
      listed = lists.get(candidate)!;
      if (listed.length) break;
    }
    return [...own, ...listed.filter((id) => !own.includes(id))].slice(0, 20);
  };
  const walk = async (i: number, filled: string[]): Promise<void> => {
    if (found.length >= max || probes > 60) return;
    if (i === segments.length) {
      const path = filled.join('/');
      if (method.toUpperCase() === 'GET') {
        probes++;
        if ((await send('GET', path)).status !== 200) return;
      }
      found.push(path);
      return;
    }
    const segment = segments[i];
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!param) return walk(i + 1, [...filled, segment]);
    if (param === 'entity_id') return walk(i + 1, [...filled, records.entityId]);
    for (const id of await idsAt(filled.join('/'), param)) {
      await walk(i + 1, [...filled, id]);
      if (found.length >= max) return;
    }
  };
  await walk(0, []);
  return found;
}

/**
 * The order operations run in when they share live records: reads, creates, edits, actions, the
 * actions that end a record's life, deletes (deepest paths first), and the cutover freeze and
 * unfreeze last (a frozen entity refuses writes).
 */
export function operationPhase(method: string, template: string): number {
  const verb = method.toLowerCase();
  const last = template.split('/').pop()!;
  if (/\/migration\/cutover\/(freeze|unfreeze)$/.test(template)) return last === 'freeze' ? 8 : 9;
  if (verb === 'get') return 0;
  if (verb === 'delete') return 7 - Math.min(template.split('{').length, 3) / 10;
  if (/^(cancel|void|close|revoke|reverse|reject|merge|rotate|rotate_secret)$/.test(last)) return 5;
  if (!template.includes('{') || template.endsWith('{entity_id}')) return 1;
  if (verb === 'patch' || verb === 'put' || last.startsWith('{')) return 2;
  return 3;
}
