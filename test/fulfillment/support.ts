import { api } from '../support/http';
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

/** The journal entries of a source with their lines. */
export async function entriesOf(app: TestApp, sourceType: string, sourceId: string) {
  const { rows } = await app.db.query(
    `SELECT e.id, e.total_debit, e.total_credit,
            json_agg(json_build_object('role', a.control_role, 'debit', l.debit_amount, 'credit', l.credit_amount)) AS lines
     FROM journal_entries e JOIN journal_lines l ON l.journal_entry_id = e.id JOIN ledger_accounts a ON a.id = l.account_id
     WHERE e.source_type = $1 AND e.source_id = $2 GROUP BY e.id`,
    [sourceType, sourceId],
  );
  return rows as {
    id: string;
    total_debit: string;
    total_credit: string;
    lines: { role: string; debit: string; credit: string }[];
  }[];
}
