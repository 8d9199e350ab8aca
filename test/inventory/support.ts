import { api } from '../support/http';
import { outbox } from '../support/outbox';
import { TestApp } from '../support/test-app';

export type Client = ReturnType<typeof api>;

/** The QA seed's inventory-related fixtures. */
export const fixturesOf = (app: TestApp) => ({
  productId: app.seed.fixtures.product_id as string,
  locationId: app.seed.fixtures.location_id as string,
  serialOrder: app.seed.fixtures.serial_order as {
    id: string;
    item_id: string;
    product_id: string;
    serials: string[];
  },
  purchaseOrderId: app.seed.fixtures.purchase_order_id as string,
  salesOrder: app.seed.fixtures.sales_order as {
    id: string;
    items: { id: string; product_id: string; quantity: number }[];
  },
});

let counter = 0;

/** A new standard product (optionally serial-tracked) through the API. */
export async function newProduct(
  client: Client,
  options: { serialTracked?: boolean; type?: string } = {},
): Promise<string> {
  counter += 1;
  const res = await client
    .post('/v1/products')
    .send({
      sku: `INV-${Date.now()}-${counter}-${Math.floor(Math.random() * 1e6)}`,
      name: `Inventory test product ${counter}`,
      type: options.type ?? 'standard',
      list_price: 20,
      serial_tracked: options.serialTracked ?? false,
    })
    .expect(201);
  return res.body.id as string;
}

/** A new location through the API. */
export async function newLocation(client: Client): Promise<string> {
  counter += 1;
  const res = await client
    .post('/v1/locations')
    .send({
      name: `Inventory test location ${counter}`,
      code: `INV-L-${Date.now()}-${counter}`,
      type: 'warehouse',
    })
    .expect(201);
  return res.body.id as string;
}

/**
 * Balances that differ from the sum of their ledger rows, over every entity and mode.
 * SQL: an invariant over every tenant's rows at once, which no route or tenant-scoped repository reads.
 */
export async function ledgerMismatches(app: TestApp): Promise<unknown[]> {
  const { rows } = await app.db.query(
    `SELECT b.id, b.on_hand, coalesce(t.q, 0) AS q, b.value, coalesce(t.v, 0) AS v
     FROM inventory_balances b
     LEFT JOIN (SELECT balance_id, sum(quantity) AS q, sum(value) AS v FROM inventory_transactions GROUP BY balance_id) t
       ON t.balance_id = b.id
     WHERE b.on_hand <> coalesce(t.q, 0) OR b.value <> coalesce(t.v, 0)`,
  );
  return rows;
}

/** How many events of a type are about one balance, through the primary entity's live events API. */
export async function balanceEvents(app: TestApp, type: string, balanceId: string): Promise<number> {
  return (await outbox(app).all(type)).filter((e) => e.data.object.id === balanceId).length;
}
