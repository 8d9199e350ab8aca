import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { lastEventId } from '../support/event-counts';
import { resolveExampleHosts } from '../support/example-hosts';
import { LiveRecords, livePaths, makeLiveRecords, operationPhase, Send } from '../support/live-records';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * If-Match on every PATCH and DELETE operation of the served description, on live records of the
 * primary entity: a stale value is 412 precondition_failed and changes nothing (the resource's
 * ETag and the newest event are the same after it); the ETag the resource's GET sent lets the
 * write through; for a PATCH, `*` lets a write through and the ETag read before a change is
 * refused after it. The resource read is the one at the operation's path, or, for a line or a
 * tag attachment (no GET of its own), the nearest resource above it with a GET.
 */

type Body = Record<string, unknown>;
interface Answer {
  status: number;
  body: Body;
  etag: string | undefined;
}

/**
 * The field a PATCH changes, by operation, where it is none of the generic ones (metadata,
 * description, name): a value derived from the current representation so that it differs
 * (undefined: this record cannot be changed by the operation, another one is tried).
 */
const CHANGES: Record<string, (current: Body) => Body | undefined> = {
  'PATCH /v1/accounts/{id}/addresses/{address_id}': () => ({ line2: `Suite ${randomUUID().slice(0, 6)}` }),
  // The one change this operation makes: a method that is not the default becomes it.
  'PATCH /v1/accounts/{id}/payment-methods/{pm_id}': (c) => (c.is_default ? undefined : { is_default: true }),
  'PATCH /v1/units-of-measure/{id}': (c) => ({ precision: c.precision === 2 ? 3 : 2 }),
  'PATCH /v1/accounting/settings': (c) => ({ late_fee_grace_days: Number(c.late_fee_grace_days ?? 0) + 1 }),
  'PATCH /v1/inventory/balances/{id}': (c) => ({ reorder_point: Number(c.reorder_point ?? 0) + 1 }),
  'PATCH /v1/inventory/serials/{id}': () => ({ lot_number: `LOT-${randomUUID().slice(0, 8)}` }),
  'PATCH /v1/inventory/settings': (c) => ({ allow_negative_stock: !c.allow_negative_stock }),
  'PATCH /v1/fulfillment/settings': (c) => ({ insurance_threshold: Number(c.insurance_threshold ?? 0) + 1 }),
  'PATCH /v1/products/{id}/vendors/{vendor_id}': (c) => ({
    lead_time_days: Number(c.lead_time_days ?? 0) + 1,
  }),
  'PATCH /v1/products/{id}/components/{component_id}': (c) => ({ quantity: Number(c.quantity ?? 1) + 1 }),
  'PATCH /v1/sales-channels/{id}': () => ({ name: `Channel ${randomUUID().slice(0, 8)}` }),
  'PATCH /v1/orders/{id}/lines/{line_id}': () => ({ description: `Line ${randomUUID().slice(0, 8)}` }),
};

describe('If-Match on every PATCH and DELETE of the served description', () => {
  let app: TestApp;
  let records: LiveRecords;
  let doc: { paths: Record<string, Record<string, { requestBody?: unknown }>> };
  let bodyFields: (template: string) => string[];

  const key = () => app.seed.entities.primary.keys.live;
  const call = async (method: string, path: string, body?: unknown, ifMatch?: string): Promise<Answer> => {
    let req = request(app.server)
      [method.toLowerCase() as 'get'](path)
      .set('Authorization', `Bearer ${key()}`);
    if (ifMatch !== undefined) req = req.set('If-Match', ifMatch);
    if (body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    const res = await req;
    return { status: res.status, body: res.body as Body, etag: res.headers.etag as string | undefined };
  };
  const send: Send = async (method, path, body) => call(method, path, body);

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: 10_000_000 });
    resolveExampleHosts(app);
    records = await makeLiveRecords(send, app.seed);
    doc = app.openapi as unknown as typeof doc;
    const schemas = (app.openapi as unknown as { components: { schemas: Record<string, Body> } }).components
      .schemas;
    bodyFields = (template) => {
      const content = (doc.paths[template].patch?.requestBody as Body | undefined)?.content as
        Record<string, { schema?: { $ref?: string; properties?: Body } }> | undefined;
      const schema = content?.['application/json']?.schema;
      const resolved = schema?.$ref ? (schemas[schema.$ref.split('/').pop()!] as Body) : schema;
      return Object.keys((resolved?.properties as Body | undefined) ?? {});
    };
    // Boot, seed and the live records made over HTTP: a loaded machine needs more than a minute.
  }, 240_000);
  afterAll(() => app?.close());

  /** The template whose GET serves the representation an operation at `template` changes. */
  const readTemplate = (template: string): string | undefined => {
    const segments = template.split('/');
    for (let n = segments.length; n > 2; n--) {
      const prefix = segments.slice(0, n).join('/');
      if (doc.paths[prefix]?.get) return prefix;
    }
    return undefined;
  };

  /**
   * A PATCH body that changes the representation `current`; null when this record cannot be
   * changed, undefined when no field to change is known for the operation.
   */
  const changeOf = (operation: string, template: string, current: Body): Body | null | undefined => {
    const own = CHANGES[operation];
    if (own) return own(current) ?? null;
    const fields = bodyFields(template);
    const mark = randomUUID().slice(0, 8);
    if (fields.includes('metadata')) return { metadata: { if_match: mark } };
    if (fields.includes('description')) return { description: `If-Match ${mark}` };
    if (fields.includes('name')) return { name: `If-Match ${mark}` };
    return undefined;
  };

  it('refuses a stale If-Match with 412 and no write, and lets the current ETag through', async () => {
    const operations = Object.entries(doc.paths)
      .flatMap(([template, item]) =>
        ['patch', 'delete'].filter((method) => item[method]).map((method) => ({ method, template })),
      )
      .sort((a, b) => operationPhase(a.method, a.template) - operationPhase(b.method, b.template));
    const problems: string[] = [];
    const passed: string[] = [];

    for (const { method, template } of operations) {
      const operation = `${method.toUpperCase()} ${template}`;
      const reads = readTemplate(template);
      if (!reads) {
        problems.push(`${operation}: no GET above it serves a representation to take an ETag from`);
        continue;
      }
      const paths = await livePaths(send, records, template, method);
      let done = false;
      const refusals: string[] = [];
      for (const path of paths) {
        const readPath = path.split('/').slice(0, reads.split('/').length).join('/');
        // A tag attachment to detach is attached first.
        if (template.endsWith('/tags/{tag_id}')) {
          const tagId = path.split('/').pop()!;
          const attached = await call('POST', path.replace(/\/[^/]+$/, ''), { tag_id: tagId });
          if (attached.status >= 300) {
            refusals.push(`${path}: attaching the tag answered ${attached.status}`);
            continue;
          }
        }
        const before = await call('GET', readPath);
        if (before.status !== 200 || !before.etag) continue;
        const body = method === 'patch' ? changeOf(operation, template, before.body) : undefined;
        if (method === 'patch' && body === undefined) {
          problems.push(`${operation}: no field to change is known (add it to CHANGES)`);
          done = true;
          break;
        }
        if (body === null) {
          refusals.push(`${path}: nothing of it to change`);
          continue;
        }

        // (a) A stale value: 412, the representation and the events as they were.
        const mark = await lastEventId(app);
        const stale = await call(method, path, body, `W/"stale-${randomUUID()}"`);
        const after = await call('GET', readPath);
        const markAfter = await lastEventId(app);
        if (stale.status !== 412 || stale.body?.code !== 'precondition_failed') {
          problems.push(
            `${operation} ${path}: a stale If-Match answered ${stale.status} ${String(stale.body?.code)}`,
          );
          done = true;
          break;
        }
        if (after.etag !== before.etag || markAfter !== mark) {
          problems.push(`${operation} ${path}: the refused write changed the resource or emitted an event`);
          done = true;
          break;
        }

        // (b) The ETag the GET sent: the write proceeds.
        const current = await call(method, path, body, before.etag);
        if (current.status === 412) {
          problems.push(`${operation} ${path}: the ETag its GET sent (${before.etag}) answered 412`);
          done = true;
          break;
        }
        if (current.status >= 300) {
          refusals.push(`${path}: ${current.status} ${String(current.body?.code)}`);
          continue;
        }
        if (method === 'patch') {
          const changed = await call('GET', readPath);
          if (changed.etag === before.etag) {
            problems.push(`${operation} ${path}: the write with the current ETag changed nothing`);
          } else {
            // The ETag read before the change is stale now; `*` matches whatever is current.
            const again = changeOf(operation, template, changed.body);
            const lost = await call(method, path, again ?? body, before.etag);
            if (lost.status !== 412)
              problems.push(`${operation} ${path}: the ETag read before a change answered ${lost.status}`);
            const any = await call(method, path, again ?? body, '*');
            if (any.status >= 300)
              problems.push(
                `${operation} ${path}: If-Match * answered ${any.status} ${String(any.body?.code)}`,
              );
          }
        }
        done = true;
        passed.push(operation);
        break;
      }
      if (!done)
        problems.push(
          `${operation}: no live record reached a 2xx with its current ETag (${refusals.join('; ') || 'no path'})`,
        );
    }
    expect(problems).toEqual([]);
    // Every PATCH and DELETE of the description was judged.
    expect(passed.length).toBe(operations.length);
  }, 600_000);
});
