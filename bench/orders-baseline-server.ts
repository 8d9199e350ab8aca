import http from 'node:http';
import { Pool, types } from 'pg';

/**
 * Benchmark baseline of `npm run bench:orders`: a bare Node `http` server with `pg` answering
 * `GET /v1/orders?limit=&starting_after=&expand[]=account` for one entity and mode (from the
 * environment) with the same SQL as the API's page (orders of the default document types, their
 * lines, their tag ids, the expanded accounts and their tag ids: five statements, the two tag
 * reads running alongside) and the same JSON, written straight from the rows. No key lookup,
 * rate limit, validation or framework. Prints `{"port":n}` once it listens.
 */

type Row = Record<string, unknown>;

const ORDER_COLUMNS = `id, livemode, created_at, updated_at, document_type, account_id, currency, order_status,
  payment_status, subtotal, discount_total, tax_total, total, amount_paid, amount_refunded, amount_due, amount_credited,
  source_order_id, converted_to_id, confirmed_at, cancelled_at, voided_at, fulfilled_at, closed_at,
  sent_to_customer_at, revised_at, revision_count, revision_acknowledged_at, acknowledged_total, due_date,
  collection_status, overdue_at, notes, metadata`;
const LINE_COLUMNS = `id, order_id, position, product_id, description, quantity, list_price, unit_price,
  pricing_policy_id, discount_percent, discount_amount, tax_rate, subtotal, discount_total, tax_total, total, parent_line_id`;
const ACCOUNT_COLUMNS = `id, livemode, created_at, updated_at, name, email, phone, currency, credit_limit,
  credit_balance, payment_terms_id, tax_id, status, merged_into_id, deleted_at, metadata`;
const DEFAULT_TYPES = ['quote', 'sales_order', 'invoice'];
/** A `date` column (an invoice's due date) as PostgreSQL writes it, `YYYY-MM-DD`, as the API answers it. */
const DATE_OID = 1082;
types.setTypeParser(DATE_OID, (text: string) => text);

/** A numeric column's text as a JSON number rounded half-even to `places` decimals. */
export function decimalNumber(text: string | null, places: number): number | null {
  if (text === null) return null;
  const dot = text.indexOf('.');
  if (dot === -1 || text.length - dot - 1 <= places) return Number(text);
  const kept = text.slice(0, dot + 1 + places);
  const rest = text.slice(dot + 1 + places);
  const half = rest[0] > '5' || (rest[0] === '5' && /[1-9]/.test(rest.slice(1)));
  const tie = rest[0] === '5' && !/[1-9]/.test(rest.slice(1));
  const lastDigit = Number(kept.replace('.', '').slice(-1));
  const up = half || (tie && lastDigit % 2 === 1);
  if (!up) return Number(kept);
  const step = 10 ** -places * (text.startsWith('-') ? -1 : 1);
  return Number((Number(kept) + step).toFixed(places));
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null);
const total = (v: unknown) => decimalNumber(v as string | null, 2);
const unit = (v: unknown) => decimalNumber(v as string | null, 4);

const toLine = (l: Row) => ({
  id: l.id,
  object: 'order_line',
  order_id: l.order_id,
  position: l.position,
  product_id: l.product_id,
  description: l.description,
  quantity: unit(l.quantity),
  list_price: unit(l.list_price),
  unit_price: unit(l.unit_price),
  pricing_policy_id: l.pricing_policy_id,
  discount_percent: unit(l.discount_percent),
  discount_amount: unit(l.discount_amount),
  tax_rate: unit(l.tax_rate),
  subtotal: unit(l.subtotal),
  discount_total: unit(l.discount_total),
  tax_total: unit(l.tax_total),
  total: unit(l.total),
  parent_line_id: l.parent_line_id ?? null,
});

const toAccount = (a: Row, tagIds: string[]) => ({
  id: a.id,
  object: 'account',
  name: a.name,
  email: a.email,
  phone: a.phone,
  currency: a.currency,
  credit_limit: unit(a.credit_limit),
  credit_balance: total(a.credit_balance),
  payment_terms_id: a.payment_terms_id,
  tax_id: a.tax_id,
  status: a.status,
  deleted: a.status === 'deleted',
  deleted_at: iso(a.deleted_at),
  merged_into_id: a.merged_into_id,
  tag_ids: tagIds,
  metadata: a.metadata,
  livemode: a.livemode,
  created_at: iso(a.created_at),
  updated_at: iso(a.updated_at),
});

function toOrder(o: Row, lines: Row[], tagIds: string[]) {
  const revisedAt = o.revised_at as Date | null;
  const acknowledgedAt = o.revision_acknowledged_at as Date | null;
  return {
    id: o.id,
    object: 'order',
    document_type: o.document_type,
    account_id: o.account_id,
    currency: o.currency,
    order_status: o.order_status,
    payment_status: o.payment_status,
    subtotal: total(o.subtotal),
    discount_total: total(o.discount_total),
    tax_total: total(o.tax_total),
    total: total(o.total),
    amount_paid: total(o.amount_paid),
    amount_refunded: total(o.amount_refunded),
    amount_due: total(o.amount_due),
    amount_credited: total(o.amount_credited),
    lines: lines.map(toLine),
    source_order_id: o.source_order_id,
    converted_to_id: o.converted_to_id,
    confirmed_at: iso(o.confirmed_at),
    cancelled_at: iso(o.cancelled_at),
    voided_at: iso(o.voided_at),
    fulfilled_at: iso(o.fulfilled_at),
    closed_at: iso(o.closed_at),
    sent_to_customer_at: iso(o.sent_to_customer_at),
    revision: {
      revised: revisedAt !== null,
      revised_at: iso(revisedAt),
      revision_count: o.revision_count,
      acknowledged: !(revisedAt !== null && (acknowledgedAt === null || acknowledgedAt < revisedAt)),
      acknowledged_at: iso(acknowledgedAt),
      acknowledged_total: total(o.acknowledged_total),
    },
    due_date: o.due_date,
    collection_status: o.collection_status,
    overdue_at: iso(o.overdue_at),
    tag_ids: tagIds,
    notes: o.notes,
    metadata: o.metadata,
    livemode: o.livemode,
    created_at: iso(o.created_at),
    updated_at: iso(o.updated_at),
  };
}

function groupBy(rows: Row[], key: string, value: (r: Row) => unknown = (r) => r): Map<string, unknown[]> {
  const groups = new Map<string, unknown[]>();
  for (const row of rows) {
    const id = row[key] as string;
    let list = groups.get(id);
    if (!list) groups.set(id, (list = []));
    list.push(value(row));
  }
  return groups;
}

async function main() {
  const url = process.env.DATABASE_URL;
  const entityId = process.env.ENTITY_ID;
  if (!url || !entityId) throw new Error('DATABASE_URL and ENTITY_ID are required');
  const livemode = process.env.LIVEMODE !== 'false';
  const pool = new Pool({ connectionString: url, max: Number(process.env.POOL_MAX ?? 20) });
  const tagIdsOf = (type: string, ids: string[]) =>
    pool.query(
      `SELECT resource_id, tag_id FROM tag_assignments WHERE entity_id = $1 AND livemode = $2
         AND resource_type = $3 AND resource_id = ANY($4::uuid[]) ORDER BY created_at, tag_id`,
      [entityId, livemode, type, ids],
    );

  const page = async (search: URLSearchParams) => {
    const limit = Math.min(100, Math.max(1, Number(search.get('limit') ?? 20) || 20));
    const after = search.get('starting_after');
    const values: unknown[] = [entityId, livemode, DEFAULT_TYPES];
    if (after) values.push(after);
    values.push(limit + 1);
    const { rows } = await pool.query<Row>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE entity_id = $1 AND livemode = $2 AND document_type = ANY($3::text[])
         ${after ? 'AND id < $4' : ''} ORDER BY id DESC LIMIT $${values.length}`,
      values,
    );
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    const ids = rows.map((r) => r.id as string);
    const [lines, tags] = await Promise.all([
      pool.query<Row>(
        `SELECT ${LINE_COLUMNS} FROM order_lines WHERE entity_id = $1 AND livemode = $2 AND order_id = ANY($3::uuid[])
           ORDER BY order_id, position`,
        [entityId, livemode, ids],
      ),
      tagIdsOf('order', ids),
    ]);
    const linesOf = groupBy(lines.rows, 'order_id');
    const tagsOf = groupBy(tags.rows, 'resource_id', (r) => r.tag_id);
    const data: Row[] = rows.map((o) =>
      toOrder(
        o,
        (linesOf.get(o.id as string) ?? []) as Row[],
        (tagsOf.get(o.id as string) ?? []) as string[],
      ),
    );
    if (search.getAll('expand[]').includes('account')) {
      const accountIds = [...new Set(rows.map((r) => r.account_id as string | null).filter((id) => id))];
      const [accounts, accountTags] = await Promise.all([
        pool.query<Row>(
          `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE entity_id = $1 AND livemode = $2 AND id = ANY($3::uuid[])`,
          [entityId, livemode, accountIds],
        ),
        tagIdsOf('account', accountIds as string[]),
      ]);
      const accountTagsOf = groupBy(accountTags.rows, 'resource_id', (r) => r.tag_id);
      const byId = new Map(
        accounts.rows.map((a) => [
          a.id as string,
          toAccount(a, (accountTagsOf.get(a.id as string) ?? []) as string[]),
        ]),
      );
      for (const order of data) {
        const account = byId.get(order.account_id as string);
        order.account = account ? { ...account } : (order.account_id ?? null);
      }
    }
    return { object: 'list', data, has_more: hasMore, url: '/v1/orders' };
  };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    const [path, search = ''] = (req.url ?? '').split('?');
    if (req.method !== 'GET' || path !== '/v1/orders' || !req.headers.authorization?.startsWith('Bearer '))
      return send(404, { error: 'not_found' });
    page(new URLSearchParams(search)).then(
      (body) => send(200, body),
      (error: unknown) => {
        console.error(error);
        send(500, { error: 'internal_error' });
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
  const stop = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
