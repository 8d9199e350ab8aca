import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import Decimal from 'decimal.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { LiveRecords, livePaths, makeLiveRecords, operationPhase, Send } from '../support/live-records';
import type { Rule } from '../support/schema-arbitrary';
import { resolveExampleHosts } from '../support/example-hosts';
import { startTestApp, TestApp } from '../support/test-app';
import { ALLOWED, KNOWN_GAPS } from './generated-requests.reviewed';

/**
 * A second, independent generator over the served description (docs/testing.md, "Independent
 * generator"): json-schema-faker, an npm package the project did not write, makes JSF_SAMPLES
 * (default 2) bodies and queries per operation from the description's JSON Schemas. Each value the
 * description itself accepts (plain ajv over the schema, and the cross-field rules its `x-rules`
 * state) is sent with the live records' ids in its paths and references; none may be a 400 but
 * for a business answer the reviewed file lists for the operation (or a KNOWN_GAPS class still
 * open), and none a 5xx. The run prints how many values were generated, how many the description
 * accepted and what the server answered; JSF_REPORT=<file> writes every refusal found.
 */

const SEED = Number(process.env.JSF_SEED ?? 45);
const SAMPLES = Number(process.env.JSF_SAMPLES ?? 2);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Json = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

/** Whether `value` breaks one of `rules` (the description's `x-rules`). */
function breaks(rules: Rule[] | undefined, value: unknown): boolean {
  if (!rules || !value || typeof value !== 'object') return false;
  const v = value as Json;
  // A field of an object field is named by its path (`settings.adapter`).
  const at = (f: string): unknown =>
    f.split('.').reduce<unknown>((o, key) => (o && typeof o === 'object' ? (o as Json)[key] : undefined), v);
  const has = (f: string) => at(f) !== undefined && at(f) !== null;
  const n = (x: unknown) => (typeof x === 'number' ? x : Date.parse(String(x)));
  return rules.some((rule) => {
    const fields = rule.fields ?? [];
    switch (rule.kind) {
      case 'exclusive':
        return fields.filter(has).length > 1;
      case 'one_required':
        return !fields.some(has);
      case 'caller_mode':
        // Every request here is sent with a live key.
        return has(rule.field!) && v[rule.field!] !== 'live';
      case 'requires':
        return has(rule.field!) && rule.requires!.some((f) => !has(f));
      case 'equal':
        return (
          has(fields[0]) && has(fields[1]) && JSON.stringify(v[fields[0]]) !== JSON.stringify(v[fields[1]])
        );
      case 'one_positive':
        return fields.filter((f) => typeof v[f] === 'number' && (v[f] as number) > 0).length !== 1;
      case 'when': {
        // Not sent, a stored rule's field may hold the condition: what it asks is then judged too.
        const field = at(rule.field!);
        const holds =
          field === undefined
            ? rule.stored === true
            : Array.isArray(rule.is)
              ? rule.is.includes(field)
              : typeof field === 'number' && field > (rule.is as { above: number }).above;
        if (!holds) return false;
        const sent = field !== undefined;
        return (
          (rule.requires ?? []).some((f) => (sent ? !has(f) : at(f) === null)) ||
          ((sent || rule.stored === true) && (rule.forbids ?? []).some((f) => at(f) !== undefined)) ||
          Object.entries(rule.minimum ?? {}).some(
            ([f, b]) => typeof at(f) === 'number' && (at(f) as number) < b,
          ) ||
          Object.entries(rule.maximum ?? {}).some(
            ([f, b]) => typeof at(f) === 'number' && (at(f) as number) > b,
          ) ||
          Object.entries(rule.allowed ?? {}).some(
            ([f, values]) => at(f) !== undefined && !values.includes(at(f)),
          )
        );
      }
      case 'distinct': {
        const list = v[rule.field!];
        if (!Array.isArray(list)) return false;
        // The items, their `key`, or (a key ending in `[]`) the elements of each item's list together.
        const inner = rule.key?.endsWith('[]') ? rule.key.slice(0, -2) : undefined;
        const keys = (
          inner !== undefined
            ? list.flatMap((item) => {
                const values = (item as Json | null)?.[inner];
                return Array.isArray(values) ? values : [];
              })
            : list.map((item) => (rule.key === undefined ? item : (item as Json | null)?.[rule.key]))
        ).map((key) => JSON.stringify(key));
        return new Set(keys).size !== keys.length;
      }
      case 'not_past': {
        // Judged against the clock with a day's margin either side (the entity's business day
        // may differ from the UTC one): a value near the bound counts as breaking the rule.
        if (!has(rule.field!)) return false;
        const day = 86_400_000;
        const value = v[rule.field!];
        if (rule.unit === 'instant') return !(Date.parse(String(value)) > Date.now() + day);
        if (rule.unit === 'day') {
          const at = Date.parse(`${String(value)}T00:00:00Z`);
          return !(at > Date.now() + day && at < Date.now() + ((rule.within_days ?? 1e6) - 2) * day);
        }
        const now = new Date();
        const month = v[rule.month!];
        return (
          typeof value !== 'number' ||
          typeof month !== 'number' ||
          value * 12 + month - 1 <= now.getUTCFullYear() * 12 + now.getUTCMonth()
        );
      }
      case 'compare': {
        // One side missing: compared with a stored value or a default the request cannot see.
        if (!has(rule.field!) || !has(rule.than!)) return has(rule.field!);
        const [a, b] = [n(v[rule.field!]), n(v[rule.than!])];
        return !(rule.op === '<' ? a < b : rule.op === '<=' ? a <= b : rule.op === '>' ? a > b : a >= b);
      }
      default:
        return false;
    }
  });
}

function queryString(query: Json): string {
  const parts = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) parts.append(name, String(item));
    else
      parts.append(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  const text = parts.toString();
  return text ? `?${text}` : '';
}

describe('requests generated by json-schema-faker from the served description', () => {
  let app: TestApp;
  let records: LiveRecords;

  const http =
    (key: () => string): Send =>
    async (method, path, body) => {
      let req = request(app.server)
        [method.toLowerCase() as 'get'](path)
        .set('Authorization', `Bearer ${key()}`);
      if (body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(body));
      const res = await req;
      return { status: res.status, body: res.body };
    };

  beforeAll(async () => {
    process.stderr.write(`json-schema-faker requests: JSF_SEED=${SEED} JSF_SAMPLES=${SAMPLES}\n`);
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: 10_000_000 });
    resolveExampleHosts(app);
    const live = app.seed.entities.primary.keys.live;
    records = await makeLiveRecords(
      http(() => live),
      app.seed,
    );
  }, 240_000);
  afterAll(() => app?.close());

  it('sends every value the description accepts and none is refused for an unstated reason', async () => {
    const doc = app.openapi as unknown as {
      paths: Record<string, Record<string, Json>>;
      components: { schemas: Record<string, Json>; parameters?: Record<string, Param> };
    };
    const ledger = (app.seed.fixtures as { ledger_accounts: Record<string, string> }).ledger_accounts;
    const ops: {
      key: string;
      method: string;
      template: string;
      query: Param[];
      idempotency: boolean;
      body?: Json;
      rules?: Rule[];
    }[] = [];
    const jobs: { id: string; schema: Json }[] = [];
    for (const [template, item] of Object.entries(doc.paths))
      for (const [method, raw] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const params = ((raw.parameters ?? []) as (Param | { $ref: string })[]).map((p) =>
          '$ref' in p ? doc.components.parameters![p.$ref.split('/').pop()!] : p,
        );
        const query = params.filter((p) => p.in === 'query' && p.schema);
        const content = (raw.requestBody as { content?: Record<string, { schema?: Json }> } | undefined)
          ?.content;
        const body = content?.['application/json']?.schema;
        const key = `${method.toUpperCase()} ${template}`;
        ops.push({
          key,
          method,
          template,
          query,
          idempotency: params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
          body,
          rules: raw['x-rules'] as Rule[] | undefined,
        });
        if (body) jobs.push({ id: `${key} body`, schema: body });
        if (query.length)
          jobs.push({
            id: `${key} query`,
            schema: {
              type: 'object',
              properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
              required: query.filter((p) => p.required).map((p) => p.name),
              additionalProperties: false,
            },
          });
      }
    ops.sort((a, b) => operationPhase(a.method, a.template) - operationPhase(b.method, b.template));

    // json-schema-faker is an ES module: it runs in a child process over all schemas at once.
    const dir = mkdtempSync(join(tmpdir(), 'jsf-'));
    let samples: Record<string, unknown[] | { error: string }>;
    try {
      writeFileSync(
        join(dir, 'in.json'),
        JSON.stringify({ components: doc.components, count: SAMPLES, seed: SEED, jobs }),
      );
      execFileSync(
        process.execPath,
        [
          join(__dirname, '../support/json-schema-faker-samples.mjs'),
          join(dir, 'in.json'),
          join(dir, 'out.json'),
        ],
        { stdio: 'inherit', timeout: 120_000 },
      );
      samples = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as typeof samples;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The description's own judgement of a value: ajv over the schema, then its x-rules.
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    // The scale of a number, as the description states it.
    ajv.addKeyword({
      keyword: 'x-decimal-places',
      type: 'number',
      schemaType: 'number',
      validate: (places: number, data: number) => new Decimal(data).decimalPlaces() <= places,
    });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const accepts = (schema: Json, value: unknown) => {
      const text = JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/');
      return ajv.validate(JSON.parse(text) as Json, value);
    };
    const rulesOf = (schema: Json | undefined): Rule[] | undefined => {
      // A described object field is `allOf: [{ $ref }]` (its own description beside the reference).
      const parts = schema?.allOf as Json[] | undefined;
      const ref = (schema?.$ref ?? (parts?.length === 1 ? parts[0].$ref : undefined)) as string | undefined;
      const target = ref ? doc.components.schemas[ref.split('/').pop()!] : schema;
      return target?.['x-rules'] as Rule[] | undefined;
    };
    /** A body's rules broken, or those of an item of one of its lists. */
    const bodyBreaks = (schema: Json, value: unknown): boolean => {
      if (breaks(rulesOf(schema), value)) return true;
      const ref = schema.$ref as string | undefined;
      const target = (ref ? doc.components.schemas[ref.split('/').pop()!] : schema) as {
        properties?: Record<string, { items?: Json }>;
      };
      return Object.entries(target.properties ?? {}).some(([name, property]) => {
        const inner = (value as Json | undefined)?.[name];
        if (property.items)
          return Array.isArray(inner) && inner.some((item) => breaks(rulesOf(property.items), item));
        // An object field's own rules (a card's expiry, an integration's settings).
        return !!inner && typeof inner === 'object' && breaks(rulesOf(property as Json), inner);
      });
    };
    // A uuid that names a record is a live one (a journal line's account_id is a ledger account).
    const withLiveIds = (value: unknown, template: string): unknown => {
      if (Array.isArray(value)) return value.map((v) => withLiveIds(v, template));
      if (!value || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => {
          if (typeof v === 'string' && UUID.test(v)) {
            if (k === 'account_id' && /journal-entries/.test(template)) return [k, ledger.expense];
            if (k === 'parent_id' && /ledger-accounts/.test(template)) return [k, ledger.expense];
            if (k !== 'starting_after' && k !== 'ending_before' && records.refs[k])
              return [k, records.refs[k]];
          }
          return [k, withLiveIds(v, template)];
        }),
      );
    };

    const figures = { generated: 0, outsideDescription: 0, sent: 0, failedJobs: 0 };
    const statuses: Record<number, number> = {};
    const gapsSeen: Record<string, number> = {};
    const problems: string[] = [];
    const sampleOf = (id: string): unknown[] => {
      const got = samples[id];
      if (!got) return [];
      if (!Array.isArray(got)) {
        figures.failedJobs++;
        return [];
      }
      return got;
    };
    for (const op of ops) {
      const bodies = op.body ? sampleOf(`${op.key} body`) : [];
      const queries = op.query.length ? sampleOf(`${op.key} query`) : [];
      const requests: { body?: unknown; query: Json }[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        if (op.body && bodies[i] === undefined) continue;
        // Judged as sent: with the live records' ids in it (two lines naming one live order line
        // break the rule that each line is named once).
        const body = op.body ? withLiveIds(bodies[i], op.template) : undefined;
        const query = withLiveIds(queries[i] ?? {}, op.template) as Json;
        figures.generated++;
        const querySchema = {
          type: 'object',
          properties: Object.fromEntries(op.query.map((p) => [p.name, p.schema])),
          required: op.query.filter((p) => p.required).map((p) => p.name),
        };
        if (
          (op.body && (!accepts(op.body, body) || bodyBreaks(op.body, body))) ||
          !accepts(querySchema, query) ||
          breaks(op.rules, query)
        ) {
          figures.outsideDescription++;
          continue;
        }
        requests.push({ body, query });
      }
      if (!requests.length) continue;
      const paths = await livePaths(
        http(() => app.seed.entities.primary.keys.live),
        records,
        op.template,
        op.method,
        1,
      );
      const path = paths[0];
      if (!path) continue;
      for (const sent of requests) {
        const key = op.template.startsWith('/v1/test_helpers/')
          ? app.seed.entities.primary.keys.test
          : app.seed.entities.primary.keys.live;
        const url = `${path}${queryString(sent.query)}`;
        let req = request(app.server)[op.method as 'get'](url).set('Authorization', `Bearer ${key}`);
        if (op.idempotency) req = req.set('Idempotency-Key', `jsf-${figures.sent}-${SEED}`);
        if (sent.body !== undefined)
          req = req.set('Content-Type', 'application/json').send(JSON.stringify(sent.body));
        const res = await req;
        figures.sent++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const error = (res.body ?? {}) as { code?: string; param?: string; hint?: string };
        const where = `${op.key} ${url} ${JSON.stringify(sent.body ?? null).slice(0, 300)} → ${res.status} ${error.code ?? ''} ${error.param ?? ''} ${error.hint?.slice(0, 160) ?? ''}`;
        const documented = (doc.paths[op.template][op.method].responses ?? {}) as Json;
        if (
          res.status >= 500 &&
          (res.status === 500 || res.status === 503 || !documented[String(res.status)])
        )
          problems.push(`server error: ${where}`);
        if (res.status !== 400) continue;
        const allowed = ALLOWED[op.key]?.answers.some(
          ([status, code, hint]) =>
            status === 400 &&
            (code === undefined || code === error.code) &&
            (!hint || new RegExp(hint).test(error.hint ?? '')),
        );
        if (allowed) continue;
        const gap = KNOWN_GAPS.find(
          (g) =>
            g.kind !== 'invalid' &&
            new RegExp(g.operation).test(op.key) &&
            (g.status === undefined || g.status === 400) &&
            (g.param === undefined || new RegExp(g.param).test(error.param ?? '')) &&
            (g.hint === undefined || new RegExp(g.hint).test(error.hint ?? '')),
        );
        if (gap) gapsSeen[gap.gap] = (gapsSeen[gap.gap] ?? 0) + 1;
        else problems.push(`valid by the description, refused: ${where}`);
      }
    }
    process.stderr.write(
      `json-schema-faker requests: ${JSON.stringify(figures)}; statuses ${JSON.stringify(statuses)}; known gaps met ${JSON.stringify(gapsSeen)}\n`,
    );
    if (process.env.JSF_REPORT) writeFileSync(process.env.JSF_REPORT, problems.join('\n'));
    // The package generated for every schema, and most of what it made is valid by the description.
    expect(figures.failedJobs).toBe(0);
    expect(figures.sent).toBeGreaterThan(figures.generated / 2);
    expect(problems.slice(0, 40)).toEqual([]);
  }, 600_000);
});
