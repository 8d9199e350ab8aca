import { api } from '../support/http';
import { controlRoles, journalEntriesOf, linesByRole } from '../support/journal';
import { TestApp } from '../support/test-app';

export type Client = ReturnType<typeof api>;

export interface SalesOrderFixture {
  id: string;
  items: { id: string; product_id: string; quantity: number }[];
}

/** The QA seed's fixtures fulfillment tests start from. */
export const fixturesOf = (app: TestApp) => ({
  salesOrder: app.seed.fixtures.sales_order as SalesOrderFixture,
  revisedOrder: app.seed.fixtures.revised_order as SalesOrderFixture,
  serialOrder: app.seed.fixtures.serial_order as {
    id: string;
    item_id: string;
    product_id: string;
    serials: string[];
  },
  quoteId: app.seed.fixtures.quote_id as string,
  productId: app.seed.fixtures.product_id as string,
  locationId: app.seed.fixtures.location_id as string,
  accountId: app.seed.fixtures.account_id as string,
  testOrderId: app.seed.fixtures.test_order_id as string,
});

let counter = 0;

/** A confirmed sales order of `lines` (product, quantity) for the QA account. */
export async function confirmedOrder(
  client: Client,
  accountId: string,
  lines: { product_id: string; quantity: number; unit_price?: number; tax_rate?: number }[],
): Promise<SalesOrderFixture> {
  const draft = await client.post('/v1/orders').send({ account_id: accountId, lines }).expect(201);
  const order = (await client.post(`/v1/orders/${draft.body.id}/confirm`).send({}).expect(200)).body;
  return {
    id: order.id,
    items: order.lines.map((l: { id: string; product_id: string; quantity: number }) => ({
      id: l.id,
      product_id: l.product_id,
      quantity: l.quantity,
    })),
  };
}

/** A new product (optionally serial-tracked, insured, or a box) through the API. */
export async function newProduct(
  client: Client,
  options: {
    serialTracked?: boolean;
    freightInsurance?: boolean;
    type?: string;
    listPrice?: number;
    dimensions?: unknown;
  } = {},
): Promise<string> {
  counter += 1;
  const res = await client
    .post('/v1/products')
    .send({
      sku: `FUL-${Date.now()}-${counter}-${Math.floor(Math.random() * 1e6)}`,
      name: `Fulfillment test product ${counter}`,
      type: options.type ?? 'standard',
      list_price: options.listPrice ?? 25,
      serial_tracked: options.serialTracked ?? false,
      freight_insurance: options.freightInsurance ?? false,
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    })
    .expect(201);
  return res.body.id as string;
}

/** Adds stock of a product at a location (optionally with serials). */
export async function stock(
  client: Client,
  productId: string,
  locationId: string,
  quantity: number,
  unitCost: number,
  serialNumbers?: string[],
): Promise<void> {
  await client
    .post('/v1/inventory/adjustments')
    .send({
      product_id: productId,
      location_id: locationId,
      quantity,
      unit_cost: unitCost,
      reason: 'fulfillment test stock',
      ...(serialNumbers ? { serial_numbers: serialNumbers } : {}),
    })
    .expect(201);
}

/** The journal entries of a source with their lines by account control role, through the API. */
export async function entriesOf(app: TestApp, sourceType: string, sourceId: string) {
  const roles = await controlRoles(app);
  return (await journalEntriesOf(app, [sourceType], [sourceId])).map((e) => ({
    id: e.id,
    entry_number: e.entry_number,
    description: e.description,
    total_debit: e.total_debit,
    total_credit: e.total_credit,
    lines: linesByRole(e, roles),
  }));
}

/**
 * Runs `request` as the API sees it `hours` later (Date.now moved on for its duration): a rate
 * quoted now has expired by then.
 */
export async function later<T>(hours: number, request: () => PromiseLike<T>): Promise<T> {
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + hours * 3600_000);
  try {
    return await request();
  } finally {
    clock.mockRestore();
  }
}

/**
 * A queued shipment notification of a package, a minute old, whose delivery job never reached the
 * queue (the process stopped between the commit and the enqueue); returns its id.
 * SQL: no request can lose the job of the notification it queues.
 */
export async function insertLostShipmentNotification(
  app: TestApp,
  pkg: { id: string; order_id: string },
  entity = app.seed.entities.primary,
): Promise<string> {
  const { rows } = await app.db.query(
    `INSERT INTO shipment_notifications (id, entity_id, livemode, created_at, updated_at, version, package_id,
       order_id, channel, recipient, subject, body, status)
     VALUES (gen_random_uuid(), $1, true, now() - interval '1 minute', now(), 1, $2, $3, 'email',
       'buyer@qa-customer.example', 'Your order has shipped', 'Tracking 9400LOST', 'queued') RETURNING id`,
    [entity.id, pkg.id, pkg.order_id],
  );
  return rows[0].id as string;
}
