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
  /**
   * Records made in the state one operation starts from, by `METHOD /path/template`: the paths to
   * try first, and where the action needs them the body naming the flow's records (the serials
   * of the line, the rate quoted for the package, the lines still to receive).
   */
  flows: Record<string, Flow>;
}

export interface Flow {
  paths: string[];
  body?: Record<string, unknown>;
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
  revised_order: { id: string };
  closed_period: { id: string };
  storefront_listing_id: string;
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
  const flows = await makeFlows(send, {
    entityId,
    f,
    business,
    create,
    read,
    code,
    vendor: id(vendorAccount),
  });
  return { entityId, made, refs, flows };
}

interface FlowTools {
  entityId: string;
  f: Fixtures;
  business: string;
  create: (path: string, body: Body, status?: number) => Promise<Body>;
  read: (path: string) => Promise<Body>;
  code: () => string;
  vendor: string;
}

/**
 * A record in the state each state action starts from, made through the API in the order a
 * client would take: draft and pending journal entries, an archived product, a closed fiscal year,
 * an order with an amount due, draft and confirmed purchase orders, packages with quoted rates and
 * a bought label, shipped packages, returns authorised and received, serials available and
 * allocated, a finished webhook delivery, draft orders (one with two lines), confirmed orders
 * without payments, an accounting period without entries, draft builds, a kit without components.
 */
async function makeFlows(send: Send, t: FlowTools): Promise<Record<string, Flow>> {
  const { f, create, read, code, business } = t;
  const flows: Record<string, Flow> = {};
  const flow = (operation: string, paths: string[], body?: Body) => (flows[operation] = { paths, body });
  const id = (body: Body) => body.id as string;
  const change = async (method: string, path: string, body?: Body) => {
    const res = await send(method, path, body);
    if (res.status >= 300)
      throw new Error(
        `making live records: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`,
      );
    return res.body as Body;
  };

  // Journal entries: drafts to edit, post, void and delete; two waiting for approval (posted above
  // a threshold set for the moment and then put back).
  const entry = (amount: number, status?: string) =>
    create('/v1/journal-entries', {
      entry_date: business,
      description: 'Generated flow entry',
      ...(status ? { status } : {}),
      lines: [
        { account_id: f.ledger_accounts.expense, debit_amount: amount },
        { account_id: f.ledger_accounts.cash, credit_amount: amount },
      ],
    });
  for (const action of ['PATCH', 'post', 'void', 'DELETE']) {
    const draft = await entry(5, 'draft');
    const operation =
      action === action.toUpperCase()
        ? `${action} /v1/journal-entries/{id}`
        : `POST /v1/journal-entries/{id}/${action}`;
    flow(operation, [
      `/v1/journal-entries/${id(draft)}`.concat(action === action.toUpperCase() ? '' : `/${action}`),
    ]);
  }
  const settings = await read('/v1/accounting/settings');
  await change('PATCH', '/v1/accounting/settings', { approval_threshold: 1000 });
  for (const action of ['approve', 'reject']) {
    const pending = await entry(5000);
    if (pending.status !== 'pending_approval')
      throw new Error(
        `making live records: an entry above the approval threshold is ${String(pending.status)}`,
      );
    flow(`POST /v1/journal-entries/{id}/${action}`, [`/v1/journal-entries/${id(pending)}/${action}`]);
  }
  await change('PATCH', '/v1/accounting/settings', {
    approval_threshold: settings.approval_threshold ?? null,
  });

  // Accounting periods and years: the seed's closed period; a year of its own, closed.
  flow('POST /v1/accounting/periods/{id}/reopen', [`/v1/accounting/periods/${f.closed_period.id}/reopen`]);
  const year = await create('/v1/accounting/fiscal-years', {
    name: `Generated ${code()}`,
    start_date: '2098-01-01',
    end_date: '2098-12-31',
    monthly_periods: false,
  });
  await change('POST', `/v1/accounting/fiscal-years/${id(year)}/close`, {});
  flow('POST /v1/accounting/fiscal-years/{id}/reopen', [`/v1/accounting/fiscal-years/${id(year)}/reopen`]);
  // An open period that holds no entries (the seed's open period holds the drafts above), in no
  // fiscal year (a year's close would close it first).
  const quiet = await create('/v1/accounting/periods', {
    name: `Generated ${code()}`,
    start_date: '2097-01-01',
    end_date: '2097-01-31',
  });
  flow('POST /v1/accounting/periods/{id}/close', [`/v1/accounting/periods/${id(quiet)}/close`]);

  // Catalog: an archived product to restore; a storefront listing of a product of its own to push.
  const archived = await create('/v1/products', { sku: code(), name: 'Generated archived' });
  await change('DELETE', `/v1/products/${id(archived)}`);
  flow('POST /v1/products/{id}/restore', [`/v1/products/${id(archived)}/restore`]);
  const storefront = await read(`/v1/channel_listings/${f.storefront_listing_id}`);
  const listed = await create('/v1/products', { sku: code(), name: 'Generated listed' });
  const listing = await create('/v1/channel_listings', {
    product_id: id(listed),
    channel: storefront.channel,
    ...(storefront.integration_id ? { integration_id: storefront.integration_id } : {}),
  });
  flow('POST /v1/channel_listings/{id}/sync', [`/v1/channel_listings/${id(listing)}/sync`]);

  // Integrations: a storefront connection of its own (sandbox adapter) to edit: its connector
  // takes both adapters and both credentials, so an edit is judged by the request and the stored
  // settings only. Then a marketplace connection, on which the rules of its stored connector type
  // (the sandbox adapter only, no access_token) are broken.
  const connection = await create('/v1/integrations', { type: 'storefront', name: 'Generated storefront' });
  const marketplace = await create('/v1/integrations', {
    type: 'marketplace1',
    name: 'Generated marketplace',
  });
  flow('PATCH /v1/integrations/{id}', [
    `/v1/integrations/${id(connection)}`,
    `/v1/integrations/${id(marketplace)}`,
  ]);

  // Catalog: a kit of its own, to which components are added.
  const kit = await create('/v1/products', { sku: code(), name: 'Generated kit', type: 'kit' });
  flow('POST /v1/products/{id}/components', [`/v1/products/${id(kit)}/components`]);

  // Sales: drafts to edit, confirm and delete; confirmed orders without payments to void and close.
  const serviceOrder = () =>
    create('/v1/orders', {
      account_id: f.account_id,
      lines: [{ description: 'Generated service', quantity: 1, unit_price: 10 }],
    });
  for (const action of ['PATCH', 'confirm', 'DELETE']) {
    const order = await serviceOrder();
    flow(action === 'confirm' ? 'POST /v1/orders/{id}/confirm' : `${action} /v1/orders/{id}`, [
      `/v1/orders/${id(order)}${action === 'confirm' ? '/confirm' : ''}`,
    ]);
  }
  for (const action of ['void', 'close']) {
    const order = await serviceOrder();
    await change('POST', `/v1/orders/${id(order)}/confirm`, {});
    flow(`POST /v1/orders/{id}/${action}`, [`/v1/orders/${id(order)}/${action}`]);
  }

  // Sales: the seed's revised order; an invoice with an amount due; a draft order with two lines.
  flow('POST /v1/orders/{id}/customer-acknowledge-revision', [
    `/v1/orders/${f.revised_order.id}/customer-acknowledge-revision`,
  ]);
  const due = await create('/v1/orders', {
    document_type: 'invoice',
    account_id: f.account_id,
    lines: [{ description: 'Generated service', quantity: 1, unit_price: 100 }],
  });
  await change('POST', `/v1/orders/${id(due)}/confirm`, {});
  flow('POST /v1/orders/{id}/payments', [`/v1/orders/${id(due)}/payments`], { method: 'cash', amount: 10 });
  const draft = await create('/v1/orders', {
    account_id: f.account_id,
    lines: [
      { description: 'Generated first line', quantity: 1, unit_price: 10 },
      { description: 'Generated second line', quantity: 1, unit_price: 10 },
    ],
  });
  const draftLines = draft.lines as Body[];
  // A deposit to match to an open invoice of its own: the amount applied is what the live invoice
  // owes (its amount due), the rest of the deposit goes to the customer's credit.
  const owing = await create('/v1/orders', {
    document_type: 'invoice',
    account_id: f.account_id,
    lines: [{ description: 'Generated service', quantity: 1, unit_price: 10 }],
  });
  await change('POST', `/v1/orders/${id(owing)}/confirm`, {});
  const matched = await create('/v1/accounting/bank-transactions', {
    bank_account_id: f.ledger_accounts.cash,
    type: 'deposit',
    amount: 15,
    transaction_date: business,
    reference: code(),
  });
  flow(
    'POST /v1/accounting/bank-transactions/{id}/match-deposit-to-invoices',
    [`/v1/accounting/bank-transactions/${id(matched)}/match-deposit-to-invoices`],
    {
      account_id: f.account_id,
      applications: [
        { invoice_id: id(owing), amount: (await read(`/v1/orders/${id(owing)}`)).amount_due as number },
      ],
      route_unapplied: 'customer_credit',
    },
  );
  flow('DELETE /v1/orders/{id}/lines/{line_id}', [`/v1/orders/${id(draft)}/lines/${id(draftLines[1])}`]);

  // Purchasing: a draft purchase order to confirm, a confirmed one to receive; a serial unit
  // received for the serial flows.
  const purchase = (productId: string, quantity: number) =>
    create('/v1/purchase-orders', {
      account_id: t.vendor,
      lines: [{ product_id: productId, quantity, unit_price: 5 }],
    });
  const toConfirm = await purchase(f.product_id, 2);
  flow('POST /v1/purchase-orders/{id}/confirm', [`/v1/purchase-orders/${id(toConfirm)}/confirm`]);
  const toReceive = await purchase(f.product_id, 2);
  await change('POST', `/v1/purchase-orders/${id(toReceive)}/confirm`, {});
  flow('POST /v1/purchase-orders/{id}/receive', [`/v1/purchase-orders/${id(toReceive)}/receive`], {
    lines: [{ order_item_id: id((toReceive.lines as Body[])[0]), quantity: 1, location_id: f.location_id }],
  });
  const serialPurchase = await purchase(f.serial_order.product_id, 1);
  await change('POST', `/v1/purchase-orders/${id(serialPurchase)}/confirm`, {});
  const serialNumber = `GEN-${code()}`;
  await change('POST', `/v1/purchase-orders/${id(serialPurchase)}/receive`, {
    lines: [
      {
        order_item_id: id((serialPurchase.lines as Body[])[0]),
        quantity: 1,
        location_id: f.location_id,
        serial_numbers: [serialNumber],
      },
    ],
  });

  // Serials: a confirmed order of the serial product takes the received unit; the seed's serial
  // order gives back one of its allocated units.
  const serialOrder = await create('/v1/orders', {
    account_id: f.account_id,
    lines: [{ product_id: f.serial_order.product_id, quantity: 1, unit_price: 10 }],
  });
  await change('POST', `/v1/orders/${id(serialOrder)}/confirm`, {});
  flow(
    'POST /v1/orders/{id}/lines/{line_id}/allocate-serials',
    [`/v1/orders/${id(serialOrder)}/lines/${id((serialOrder.lines as Body[])[0])}/allocate-serials`],
    { serial_numbers: [serialNumber] },
  );
  flow(
    'POST /v1/orders/{id}/lines/{line_id}/deallocate-serials',
    [`/v1/orders/${f.serial_order.id}/lines/${f.serial_order.item_id}/deallocate-serials`],
    { serial_numbers: [f.serial_order.serials[0]] },
  );

  // Fulfillment: an order of its own, invoiced, with a package whose rates are quoted (a label to
  // buy), one whose label is bought (to ship) and one shipped, of which two units come back: one
  // return authorised (to receive), one received (to refund).
  const shipping = await create('/v1/orders', {
    account_id: f.account_id,
    lines: [{ product_id: f.product_id, quantity: 5, unit_price: 10 }],
  });
  await change('POST', `/v1/orders/${id(shipping)}/confirm`, {});
  const billed = await change('POST', `/v1/orders/${id(shipping)}/convert`, {});
  await change('POST', `/v1/orders/${id(billed)}/confirm`, {});
  const shippingLine = id((shipping.lines as Body[])[0]);
  const quoted = async (quantity: number) => {
    const pkg = await create('/v1/packages', {
      order_id: id(shipping),
      items: [{ order_item_id: shippingLine, quantity }],
    });
    const rates = (await read(`/v1/packages/${id(pkg)}/rates`)).data as Body[];
    if (!rates.length) throw new Error(`making live records: no rate quoted for package ${id(pkg)}`);
    return { pkg, rate: rates[0].rate_object_id as string };
  };
  const toLabel = await quoted(1);
  flow('POST /v1/packages/{id}/buy-label', [`/v1/packages/${id(toLabel.pkg)}/buy-label`], {
    rate_object_id: toLabel.rate,
  });
  const toShip = await quoted(1);
  await change('POST', `/v1/packages/${id(toShip.pkg)}/buy-label`, { rate_object_id: toShip.rate });
  // Carrier and tracking come from the label: the body is empty.
  flow('POST /v1/packages/{id}/ship', [`/v1/packages/${id(toShip.pkg)}/ship`], {});
  const toDeliver = await quoted(1);
  await change('POST', `/v1/packages/${id(toDeliver.pkg)}/buy-label`, { rate_object_id: toDeliver.rate });
  await change('POST', `/v1/packages/${id(toDeliver.pkg)}/ship`, {});
  flow('POST /v1/packages/{id}/deliver', [`/v1/packages/${id(toDeliver.pkg)}/deliver`]);
  const sent = await quoted(2);
  await change('POST', `/v1/packages/${id(sent.pkg)}/buy-label`, { rate_object_id: sent.rate });
  const shipped = await change('POST', `/v1/packages/${id(sent.pkg)}/ship`, {});
  const shippedItem = (shipped.items as Body[])[0];
  const authorise = () =>
    create('/v1/returns', {
      account_id: f.account_id,
      order_id: id(shipping),
      lines: [{ order_item_id: shippingLine, quantity: 1 }],
      reason: 'Generated flow',
    });
  // A return of the delivered package's unit (the one shipped unit no return holds yet): the
  // quantity a new return may take is the live order's, not a generated one.
  flow('POST /v1/returns', ['/v1/returns'], {
    account_id: f.account_id,
    order_id: id(shipping),
    lines: [{ order_item_id: shippingLine, quantity: 1 }],
    reason: 'Generated flow',
  });
  const receipt = { package_id: id(sent.pkg), items: [{ package_item_id: id(shippedItem), quantity: 1 }] };
  const toReceiveBack = await authorise();
  flow('POST /v1/returns/{id}/receive', [`/v1/returns/${id(toReceiveBack)}/receive`], receipt);
  const toRefund = await authorise();
  await change('POST', `/v1/returns/${id(toRefund)}/receive`, receipt);
  flow('POST /v1/returns/{id}/refund', [`/v1/returns/${id(toRefund)}/refund`], {
    method: 'original_payment',
  });

  // Builds: two drafts of the seed's kit, one to post and one to void.
  for (const action of ['post', 'void']) {
    const build = await create('/v1/inventory/builds', {
      kit_product_id: f.kit_product_id,
      quantity: 1,
      location_id: f.location_id,
      status: 'draft',
    });
    flow(`POST /v1/inventory/builds/{id}/${action}`, [`/v1/inventory/builds/${id(build)}/${action}`]);
  }

  // Webhooks: a delivery cancelled when its endpoint was disabled by hand, the endpoint active
  // again (per path form).
  for (const [operation, prefix] of [
    [
      'POST /v1/entities/{entity_id}/webhook_endpoints/{id}/deliveries/{delivery_id}/resend',
      `/v1/entities/${t.entityId}/webhook_endpoints`,
    ],
    ['POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/resend', '/v1/webhook_endpoints'],
  ]) {
    // One URL per path form: an active endpoint's URL is unique in its mode (409 duplicate_url).
    const endpoint = id(
      await change('POST', prefix, {
        url: `http://127.0.0.1:9/generated-resend/${prefix.startsWith('/v1/entities/') ? 'entity' : 'plain'}`,
        enabled_events: ['order.confirmed'],
        description: 'Generated resend',
      }),
    );
    const delivery = await change('POST', `${prefix}/${endpoint}/test`, {});
    const log = `${prefix}/${endpoint}/deliveries/${id(delivery)}`;
    // A dispatcher that is running makes its first attempt first (an attempt under way when the
    // endpoint is disabled would schedule its retry after the cancel), then the delivery is
    // cancelled; without a dispatcher the delivery is cancelled before any attempt.
    const settle = async (done: (d: Body) => boolean) => {
      for (let i = 0; i < 50 && !done(await read(log)); i++) await new Promise((r) => setTimeout(r, 100));
    };
    await settle((d) => Number(d.attempt_count) > 0 || d.status !== 'pending');
    await change('PATCH', `${prefix}/${endpoint}`, { status: 'disabled' });
    await settle((d) => d.status !== 'pending');
    await change('PATCH', `${prefix}/${endpoint}`, { status: 'active' });
    if ((await read(log)).status === 'pending')
      throw new Error(
        `making live records: the delivery ${log} is still pending after its endpoint was disabled`,
      );
    flow(operation, [`${prefix}/${endpoint}/deliveries/${id(delivery)}/resend`]);
  }
  return flows;
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
  // The records other operations' flows made in their starting state are theirs alone.
  const key = `${method.toUpperCase()} ${template}`;
  const reserved = new Set(
    Object.entries(records.flows)
      .filter(([operation]) => operation !== key)
      .flatMap(([, flow]) => flow.paths.flatMap((path) => path.split('/'))),
  );
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
    return [...own, ...listed.filter((id) => !own.includes(id) && !reserved.has(id))].slice(0, 20);
  };
  // The records made in the state the operation starts from come first.
  found.push(...(records.flows[key]?.paths ?? []).slice(0, max));
  const walk = async (i: number, filled: string[]): Promise<void> => {
    if (found.length >= max || probes > 60) return;
    if (i === segments.length) {
      const path = filled.join('/');
      if (method.toUpperCase() === 'GET') {
        probes++;
        if ((await send('GET', path)).status !== 200) return;
      }
      if (!found.includes(path)) found.push(path);
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
 * unfreeze last (a frozen entity refuses writes), each path form's unfreeze right after its
 * freeze (the other form's freeze would find the entity frozen already, its unfreeze not frozen).
 */
export function operationPhase(method: string, template: string): number {
  const verb = method.toLowerCase();
  const last = template.split('/').pop()!;
  if (/\/migration\/cutover\/(freeze|unfreeze)$/.test(template))
    return 8 + (template.includes('{entity_id}') ? 0 : 0.5) + (last === 'unfreeze' ? 0.25 : 0);
  if (verb === 'get') return 0;
  if (verb === 'delete') return 7 - Math.min(template.split('{').length, 3) / 10;
  if (/^(cancel|void|close|revoke|reverse|reject|merge|rotate|rotate_secret)$/.test(last)) return 5;
  if (!template.includes('{') || template.endsWith('{entity_id}')) return 1;
  if (verb === 'patch' || verb === 'put' || last.startsWith('{')) return 2;
  return 3;
}
