import type { TestApp } from '../support/test-app';

/**
 * Reads and writes of sales storage that no route or tenant-scoped repository can make; each
 * says why it is SQL.
 */

/** Orders of every entity, mode and document type. SQL: a count across tenants, which nothing scoped gives. */
export async function countOrdersOfEveryTenant(app: TestApp): Promise<number> {
  return Number((await app.db.query('SELECT count(*) FROM orders')).rows[0].count);
}

/** A payment's whole stored row as JSON text. SQL: what is at rest is the point, every column of it. */
export async function storedPaymentRow(app: TestApp, paymentId: string): Promise<string> {
  const { rows } = await app.db.query('SELECT row_to_json(p)::text AS row FROM payments p WHERE id = $1', [
    paymentId,
  ]);
  return rows[0].row as string;
}

/**
 * Whether a pricing policy's row is still stored. SQL: a deleted policy is absent from every route
 * and repository read either way; only the table tells a hard delete from a hidden row.
 */
export async function pricingPolicyRowExists(app: TestApp, id: string): Promise<boolean> {
  const { rows } = await app.db.query('SELECT count(*)::int AS n FROM pricing_policies WHERE id = $1', [id]);
  return rows[0].n > 0;
}

/**
 * Tries to make every payment method of an account its default in one write. SQL: the one-default
 * index is a storage guarantee, which only a write past the API can try to break.
 */
export async function makeEveryPaymentMethodDefault(app: TestApp, accountId: string): Promise<void> {
  await app.db.query('UPDATE payment_methods SET is_default = true WHERE account_id = $1', [accountId]);
}
