import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { LiveRecords, livePaths, makeLiveRecords, operationPhase, Send } from '../support/live-records';
import { validatorFor } from '../support/openapi-validator';
import {
  everyField,
  getPath,
  resolveSchema,
  Rule,
  ruleViolations,
  satisfyRules,
  Schema,
  SchemaContext,
  valueOf,
  violationsOf,
  whenHolds,
} from '../support/schema-arbitrary';
import { resolveExampleHosts } from '../support/example-hosts';
import { startTestApp, TestApp } from '../support/test-app';
import { ALLOWED, KNOWN_GAPS, NO_SUCCESS, Allowed } from './generated-requests.reviewed';

/**
 * Requests generated from the served OpenAPI description, for every operation (docs/testing.md,
 * "Generated requests"). Path ids are live records of the primary entity (the QA seed's fixtures
 * and records made first); references in bodies and queries name live records too. Per operation:
 *
 * (a) requests valid by the description (an example-based minimal one, then GENREQ_SAMPLES random
 *     ones from fast-check arbitraries derived from the schemas) are never refused with 400, and
 *     any other 4xx is one the reviewed file lists for the operation with its reason;
 * (b) for each constraint of each query parameter, header and body field (required, type, enum,
 *     format, pattern, bounds, lengths, item counts, additionalProperties false), the minimal
 *     valid request with only that constraint broken is a 400 whose `param` names the field;
 * (c) every response matches the description; (d) no 5xx;
 * and every operation reaches a 2xx at least once, but those the reviewed file names with why.
 * GENREQ_SEED (printed) makes a run repeatable.
 */

const SEED = Number(process.env.GENREQ_SEED ?? 45);
const SAMPLES = Number(process.env.GENREQ_SAMPLES ?? 3);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  key: string;
  method: string;
  template: string;
  params: Param[];
  body?: Schema;
  /** A body in another media type only (CSV, NDJSON): not generated here. */
  otherBody: boolean;
  /** The cross-field rules of the query (`x-rules` of the operation). */
  rules: Rule[];
}
interface Sent {
  kind: 'valid' | 'invalid';
  op: Operation;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
  /** For an invalid request: the field whose one constraint it breaks, and which. */
  breaks?: { param: string; constraint: string };
}
interface Result {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function queryString(query: Record<string, unknown>): string {
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

/** Whether an error's `param` names `field` (an element or a member of it counts). */
const names = (param: unknown, field: string) => {
  const base = field.replace(/\[\]$/, '').replace(/\[\]\[0\]$/, '[0]');
  return (
    typeof param === 'string' &&
    (param.toLowerCase() === base.toLowerCase() ||
      param.replace(/\[\]/, '') === base ||
      param.startsWith(`${base}[`) ||
      param.startsWith(`${base}.`))
  );
};

describe('generated requests from the served description', () => {
  let app: TestApp;
  let records: LiveRecords;
  let ctxFor: (op: Operation) => SchemaContext;
  let operations: Operation[];

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
    process.stderr.write(`generated requests: GENREQ_SEED=${SEED} GENREQ_SAMPLES=${SAMPLES}\n`);
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: 10_000_000 });
    resolveExampleHosts(app);
    const live = app.seed.entities.primary.keys.live;
    records = await makeLiveRecords(
      http(() => live),
      app.seed,
    );
    const doc = app.openapi as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { parameters?: Record<string, Param>; schemas?: Record<string, Schema> };
    };
    const ledger = (app.seed.fixtures as { ledger_accounts: Record<string, string> }).ledger_accounts;
    ctxFor = (op) => ({
      document: doc,
      liveId: (field) => {
        // In a journal line, account_id names a ledger account.
        if (field === 'account_id' && /journal-entries/.test(op.template)) return ledger.expense;
        // A ledger account's parent is a ledger account (parent_id elsewhere is a product category).
        if (field === 'parent_id' && /ledger-accounts/.test(op.template)) return ledger.expense;
        if (field === 'ending_before' || field === 'starting_after') return undefined;
        return records.refs[field];
      },
    });
    operations = [];
    for (const [template, item] of Object.entries(doc.paths))
      for (const [method, raw] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const op = raw as {
          'x-rules'?: Rule[];
          parameters?: (Param | { $ref: string })[];
          requestBody?: { content?: Record<string, { schema?: Schema }> };
        };
        const params = (op.parameters ?? []).map((p) =>
          '$ref' in p ? doc.components.parameters![p.$ref.split('/').pop()!] : p,
        );
        const content = op.requestBody?.content ?? {};
        operations.push({
          key: `${method.toUpperCase()} ${template}`,
          method,
          template,
          params,
          body: content['application/json']?.schema,
          otherBody: !!op.requestBody && !content['application/json'],
          rules: op['x-rules'] ?? [],
        });
      }
    operations.sort((a, b) => operationPhase(a.method, a.template) - operationPhase(b.method, b.template));
    // Boot, seed and some forty records made over HTTP: a loaded machine needs more than a minute.
  }, 240_000);
  afterAll(() => app?.close());

  it('sends valid and single-constraint-broken requests to every operation', async () => {
    const validator = validatorFor(app.openapi);
    const problems: string[] = [];
    const gapsSeen = new Map<string, number>();
    const succeeded = new Set<string>();
    /** The last answer to a valid request of an operation that has not succeeded (for the report). */
    const lastRefusal = new Map<string, string>();
    const statuses = new Map<number, number>();
    let count = 0;
    const started = Date.now();

    const send = async (sent: Sent): Promise<Result> => {
      const testMode = sent.op.template.startsWith('/v1/test_helpers/');
      const key = testMode ? app.seed.entities.primary.keys.test : app.seed.entities.primary.keys.live;
      const url = `${sent.path}${queryString(sent.query)}`;
      let req = request(app.server)[sent.op.method as 'get'](url).set('Authorization', `Bearer ${key}`);
      for (const [name, value] of Object.entries(sent.headers)) req = req.set(name, value);
      if (sent.body !== undefined)
        req = req.set('Content-Type', 'application/json').send(JSON.stringify(sent.body));
      const res = await req;
      count++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return { status: res.status, body: res.body, headers: res.headers, text: res.text };
    };

    const judge = (sent: Sent, res: Result) => {
      const error = (res.body ?? {}) as { code?: string; param?: string; hint?: string };
      const where = `${sent.op.key} [${sent.kind}${sent.breaks ? ` ${sent.breaks.param}: ${sent.breaks.constraint}` : ''}] ${sent.path}${queryString(sent.query)} ${sent.body === undefined ? '' : JSON.stringify(sent.body).slice(0, 300)} → ${res.status} ${error.code ?? ''} ${error.param ?? ''} ${error.hint?.slice(0, 160) ?? ''}`;
      const gap = KNOWN_GAPS.find(
        (g) =>
          (g.kind === undefined || g.kind === sent.kind) &&
          new RegExp(g.operation).test(sent.op.key) &&
          (g.param === undefined || new RegExp(g.param).test(sent.breaks?.param ?? error.param ?? '')) &&
          (g.constraint === undefined || new RegExp(g.constraint).test(sent.breaks?.constraint ?? '')) &&
          (g.status === undefined || g.status === res.status) &&
          (g.hint === undefined || new RegExp(g.hint).test(error.hint ?? '')),
      );
      const flag = (problem: string) => {
        if (gap) gapsSeen.set(gap.gap, (gapsSeen.get(gap.gap) ?? 0) + 1);
        else problems.push(`${problem}: ${where}`);
      };
      // 500 and 503 are documented everywhere; a 5xx is only right when the operation states it
      // for its own reason (501 for a connector that cannot push listings).
      const documented = (
        app.openapi as unknown as {
          paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        }
      ).paths[sent.op.template][sent.op.method].responses;
      if (res.status >= 500 && (res.status === 500 || res.status === 503 || !documented[String(res.status)]))
        problems.push(`server error: ${where}`);
      const off = validator.problems(sent.op.method, `${sent.path}${queryString(sent.query)}`, res).problems;
      if (off.length) problems.push(`response off the description (${off.slice(0, 3).join('; ')}): ${where}`);
      if (res.status < 300) succeeded.add(sent.op.key);
      else if (sent.kind === 'valid' && !succeeded.has(sent.op.key))
        lastRefusal.set(sent.op.key, `${res.status} ${error.code ?? ''} ${error.hint?.slice(0, 200) ?? ''}`);
      if (sent.kind === 'valid') {
        if (res.status < 400) return;
        const allowed: Allowed | undefined = ALLOWED[sent.op.key];
        const ok = allowed?.answers.some(
          ([status, code, hint]) =>
            status === res.status &&
            (code === undefined || code === error.code) &&
            (hint === undefined || new RegExp(hint).test(error.hint ?? '')),
        );
        if (!ok) flag(`valid request refused`);
      } else if (res.status !== 400 || !names(error.param, sent.breaks!.param)) {
        flag(res.status === 400 ? `400 names the wrong param` : `invalid request not answered 400`);
      }
    };

    for (const [i, op] of operations.entries()) {
      const ctx = ctxFor(op);
      const paths = await livePaths(
        http(() => app.seed.entities.primary.keys.live),
        records,
        op.template,
        op.method,
      );
      if (!paths.length)
        paths.push(
          op.template.replace(/\{(\w+)\}/g, (_, n: string) =>
            n === 'entity_id' ? records.entityId : randomUUID(),
          ),
        );
      const query = op.params.filter((p) => p.in === 'query');
      const idempotency = op.params.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      const headers = (): Record<string, string> => (idempotency ? { 'Idempotency-Key': randomUUID() } : {});
      const bodySchema = op.body ? resolveSchema(ctx, op.body) : undefined;
      const requiredQuery = query.filter((p) => p.required).map((p) => p.name);
      const requestOf = (options: { minimal: boolean; examples: boolean }) =>
        fc.record({
          query: fc
            .record(
              Object.fromEntries(
                query
                  .filter((p) => p.required || !options.minimal)
                  .map((p) => [p.name, valueOf(ctx, p.schema, options, p.name)]),
              ),
              { requiredKeys: requiredQuery },
            )
            // The query's cross-field rules (one cursor of a page at a time).
            .map((q) => satisfyRules(op.rules, q, {}, requiredQuery)),
          body: op.body ? valueOf(ctx, op.body, options) : fc.constant(undefined),
        });
      const take = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) =>
        n === 0 ? [] : fc.sample(arb, { numRuns: n, seed: SEED * 1000 + i * 10 + offset });
      const minimal = (
        take(requestOf({ minimal: true, examples: true }), 1, 0) as {
          query: Record<string, unknown>;
          body: unknown;
        }[]
      )[0];
      if (op.method !== 'get' && op.method !== 'delete' && op.body && minimal.body === undefined)
        minimal.body = {};
      // Lines under "exactly one amount above zero" alternate sides, so that the minimal request's
      // debits equal its credits (a rule of the books, 422 otherwise) and a rule broken alone is
      // the one refused.
      if (bodySchema && minimal.body && typeof minimal.body === 'object')
        for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
          const rule = resolveSchema(ctx, resolveSchema(ctx, schema).items)['x-rules']?.find(
            (r) => r.kind === 'one_positive',
          );
          const list = (minimal.body as Record<string, unknown>)[name];
          if (!rule || !Array.isArray(list) || list.length % 2) continue;
          const [debit, credit] = rule.fields!;
          (minimal.body as Record<string, unknown>)[name] = list.map((line, i) => ({
            ...(line as object),
            [debit]: i % 2 ? 0 : 1,
            [credit]: i % 2 ? 1 : 0,
          }));
        }
      if (op.method !== 'get' && op.method !== 'delete' && !op.body && !op.otherBody)
        minimal.body = undefined;
      // A record made in the state the action starts from comes with the body naming its own
      // records (the line's serials, the rate quoted for the package): that body is the minimal one.
      const flowBody = records.flows[op.key]?.body;
      if (flowBody) minimal.body = flowBody;

      // (a) The minimal example request on each live path until one succeeds; then random ones.
      let path = paths[0];
      for (const candidate of paths) {
        const sent: Sent = {
          kind: 'valid',
          op,
          path: candidate,
          query: minimal.query,
          headers: headers(),
          body: minimal.body,
        };
        const res = await send(sent);
        judge(sent, res);
        if (res.status < 300) {
          path = candidate;
          break;
        }
      }
      // A deleted record is gone: its path takes no more requests.
      const samples = op.method === 'delete' && succeeded.has(op.key) ? 0 : SAMPLES;
      for (const values of take(requestOf({ minimal: false, examples: false }), samples, 1) as {
        query: Record<string, unknown>;
        body: unknown;
      }[]) {
        const sent: Sent = {
          kind: 'valid',
          op,
          path,
          query: values.query,
          headers: headers(),
          body: values.body,
        };
        judge(sent, await send(sent));
      }

      // (b) One constraint broken at a time, on the minimal request.
      const broken: Sent[] = [];
      const breakWith = (param: string, constraint: string, change: Partial<Sent>) =>
        broken.push({
          kind: 'invalid',
          op,
          path,
          query: minimal.query,
          headers: headers(),
          body: minimal.body,
          breaks: { param, constraint },
          ...change,
        });
      for (const p of query) {
        if (p.required) breakWith(p.name, 'required', { query: { ...minimal.query, [p.name]: undefined } });
        const schema = resolveSchema(ctx, p.schema);
        // A query carries text: a type is broken only by text that no value of the type reads as;
        // an array is its repeated values, so its items' constraints are what can break.
        const [field, own] = schema.type === 'array' ? [`${p.name}[0]`, schema.items] : [p.name, p.schema];
        for (const v of violationsOf(ctx, own)) {
          if (v.value === null || typeof v.value === 'object') continue;
          // Any text is a string: a number is no type violation of a string parameter.
          if (v.constraint === 'type' && typeof v.value === 'number') continue;
          breakWith(field, v.constraint, {
            query: { ...minimal.query, [p.name]: schema.type === 'array' ? [v.value] : v.value },
          });
        }
        if (schema.type === 'array' && schema.maxItems !== undefined)
          for (const v of violationsOf(ctx, schema).filter((x) => x.constraint === 'maxItems'))
            breakWith(p.name, v.constraint, { query: { ...minimal.query, [p.name]: v.value } });
      }
      if (idempotency)
        for (const v of violationsOf(ctx, idempotency.schema))
          if (typeof v.value === 'string')
            breakWith('Idempotency-Key', v.constraint, { headers: { 'Idempotency-Key': v.value } });
      if (bodySchema && minimal.body && typeof minimal.body === 'object' && !Array.isArray(minimal.body)) {
        const base = minimal.body as Record<string, unknown>;
        for (const name of bodySchema.required ?? []) {
          const { [name]: _left, ...rest } = base;
          breakWith(name, 'required', { body: rest });
        }
        if (bodySchema.additionalProperties === false)
          breakWith('unexpected_field', 'additionalProperties', { body: { ...base, unexpected_field: 1 } });
        for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
          if (resolveSchema(ctx, schema).readOnly) continue;
          for (const v of violationsOf(ctx, schema))
            breakWith(name, v.constraint, { body: { ...base, [name]: v.value } });
        }
      }
      // Each cross-field rule broken alone: of the query, of the body, of a body list's first item.
      if (op.rules.length) {
        const all = take(
          fc.record(Object.fromEntries(query.map((p) => [p.name, valueOf(ctx, p.schema, {}, p.name)]))),
          1,
          2,
        )[0];
        for (const { rule, value } of ruleViolations(op.rules, minimal.query, all))
          breakWith(rule.param, `x-rules ${rule.kind}`, { query: value });
      }
      if (bodySchema && minimal.body && typeof minimal.body === 'object' && !Array.isArray(minimal.body)) {
        const base = minimal.body as Record<string, unknown>;
        const all = take(everyField(ctx, op.body), 1, 3)[0];
        // The values a field (or a field of an object field) lists, for a rule's `allowed` broken.
        const valuesOf = (path: string) =>
          path.split('.').reduce<Schema>((s, key) => resolveSchema(ctx, s.properties?.[key]), bodySchema)
            .enum;
        const bodyRules = bodySchema['x-rules'] ?? [];
        // An object field the rule reaches into still obeys its own rules (but the field broken).
        const innerRulesKept = (rule: Rule, value: Record<string, unknown>) => {
          for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
            const inner = resolveSchema(ctx, schema);
            const sent = value[name];
            if (!inner['x-rules']?.length || !sent || typeof sent !== 'object' || Array.isArray(sent))
              continue;
            const kept = [rule.param, rule.field ?? '', ...Object.keys(rule.allowed ?? {})]
              .filter((f) => f.startsWith(`${name}.`))
              .map((f) => f.slice(name.length + 1));
            value[name] = satisfyRules(
              inner['x-rules'],
              sent as Record<string, unknown>,
              take(everyField(ctx, inner), 1, 6)[0],
              inner.required ?? [],
              kept,
            );
          }
          return value;
        };
        // A stored rule whose condition is a field the request cannot send (an integration's
        // connector `type`) is the record's: it is broken on a live record that meets the
        // condition (read with GET), the condition left out of the body.
        const ofRecord = (rule: Rule) =>
          rule.kind === 'when' &&
          !!rule.stored &&
          !(rule.field!.split('.')[0] in (bodySchema.properties ?? {}));
        for (const { rule, value } of ruleViolations(bodyRules, base, all, valuesOf)) {
          if (ofRecord(rule)) continue;
          breakWith(rule.param, `x-rules ${rule.kind}`, { body: innerRulesKept(rule, value) });
        }
        for (const rule of bodyRules.filter(ofRecord)) {
          let met: { path: string; value: unknown } | undefined;
          for (const candidate of paths) {
            const record = await http(() => app.seed.entities.primary.keys.live)('GET', candidate);
            const value = getPath((record.body ?? {}) as Record<string, unknown>, rule.field!);
            if (record.status === 200 && whenHolds(rule, { [rule.field!]: value })) {
              met = { path: candidate, value };
              break;
            }
          }
          const violation = met
            ? ruleViolations(bodyRules, { ...base, [rule.field!]: met.value }, all, valuesOf).find(
                (v) => v.rule === rule,
              )
            : undefined;
          if (!met || !violation) {
            problems.push(
              `${op.key}: x-rules ${rule.kind} on the record's ${rule.field} not broken (no live record meets it)`,
            );
            continue;
          }
          delete violation.value[rule.field!];
          breakWith(rule.param, `x-rules ${rule.kind} (record)`, {
            path: met.path,
            body: innerRulesKept(rule, violation.value),
          });
        }
        for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
          // An object field's own rules (a card's expiry), named inside it: `card.exp_year`.
          const own = resolveSchema(ctx, schema);
          const inner = base[name];
          if (own['x-rules']?.length && inner && typeof inner === 'object' && !Array.isArray(inner)) {
            const every = take(everyField(ctx, own), 1, 5)[0];
            for (const { rule, value } of ruleViolations(
              own['x-rules'],
              inner as Record<string, unknown>,
              every,
            ))
              breakWith(`${name}.${rule.param}`, `x-rules ${rule.kind}`, {
                body: { ...base, [name]: value },
              });
          }
          const items = resolveSchema(ctx, resolveSchema(ctx, schema).items);
          const first = (base[name] as unknown[] | undefined)?.[0];
          if (!items['x-rules']?.length || !first || typeof first !== 'object') continue;
          const every = take(everyField(ctx, items), 1, 4)[0];
          for (const { rule, value } of ruleViolations(
            items['x-rules'],
            first as Record<string, unknown>,
            every,
          ))
            breakWith(`${name}[0].${rule.param}`, `x-rules ${rule.kind}`, {
              body: { ...base, [name]: [value, ...(base[name] as unknown[]).slice(1)] },
            });
        }
      }
      for (const sent of broken) judge(sent, await send(sent));
    }

    const unreached = operations
      .map((op) => op.key)
      .filter((key) => !succeeded.has(key) && !(key in NO_SUCCESS));
    const stale = Object.keys(NO_SUCCESS).filter((key) => succeeded.has(key));
    process.stderr.write(
      `generated requests: ${count} requests over ${operations.length} operations in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `${succeeded.size} reached 2xx; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `known gaps met ${JSON.stringify(Object.fromEntries(gapsSeen))}\n`,
    );
    if (process.env.GENREQ_REPORT)
      writeFileSync(
        process.env.GENREQ_REPORT,
        [
          ...problems,
          ...operations
            .map((op) => op.key)
            .filter((key) => !succeeded.has(key))
            .map(
              (key) =>
                `no 2xx${key in NO_SUCCESS ? ' (listed)' : ''}: ${key} (last: ${lastRefusal.get(key) ?? '-'})`,
            ),
          ...stale.map((key) => `stale: ${key}`),
        ].join('\n'),
      );
    expect(problems.slice(0, 60)).toEqual([]);
    // Every operation reaches a success, but those the reviewed file names with the reason.
    expect(unreached).toEqual([]);
    // An operation that now succeeds leaves NO_SUCCESS.
    expect(stale).toEqual([]);
  }, 600_000);
});
