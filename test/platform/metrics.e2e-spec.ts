import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { startDispatcher, Dispatcher } from '../../apps/webhook-dispatcher/bootstrap';
import { loadConfig } from '#platform/config/app-config';
import { ledgerFixtures, twoLines } from '../accounting/support/accounting-fixtures';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/eventually';
import { startReceiver, Receiver } from '../webhooks/webhook-harness';

const TOKEN = 'metrics-token-for-the-e2e-test-suite';

/** Value of one sample line (`name{labels} value`) of a Prometheus exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== '{' && rest[0] !== ' ') continue;
    if (wanted.every((w) => rest.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics (Prometheus)', () => {
  let app: TestApp;
  let dispatcher: Dispatcher;
  let receiver: Receiver;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp({ METRICS_TOKEN: TOKEN });
    dispatcher = await startDispatcher(
      loadConfig({}, { ...app.config, WEBHOOK_OUTBOX_POLL_MS: 100, WEBHOOK_SWEEP_INTERVAL_MS: 500 }),
      0,
    );
    receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(async () => {
    await dispatcher.close();
    await receiver.close();
    await app.close();
  });

  it('refuses a scrape without the token, in the envelope', async () => {
    const none = await request(app.server).get('/metrics').expect(401);
    expect(none.body).toMatchObject({ code: 'invalid_api_key', type: 'authentication_error' });
    const wrong = await request(app.server).get('/metrics').set('Authorization', 'Bearer nope').expect(401);
    expect(wrong.body.code).toBe('invalid_api_key');
    await request(dispatcher.health).get('/metrics').set('Authorization', 'Bearer nope').expect(401);
  });

  it('exposes request, pool, outbox, queue, ledger and delivery series after some traffic', async () => {
    const entity = app.seed.entities.primary.id;
    await live.get('/v1/tags?limit=5').expect(200);
    await live.get('/v1/tags/0190a8a0-0000-7000-8000-00000000dead').expect(404);
    const fx = ledgerFixtures(app);
    const date = new Date().toISOString().slice(0, 10);
    await live
      .post('/v1/journal-entries')
      .send({
        entry_date: date,
        description: 'Metrics',
        lines: twoLines(fx.accounts.expense, fx.accounts.cash, 12),
      })
      .expect(201);
    await live
      .post(`/v1/entities/${entity}/webhook_endpoints`)
      .send({ url: receiver.url('/metrics-hook'), enabled_events: ['setting.tag.created'] })
      .expect(201);
    await live.post('/v1/tags').send({ name: 'metrics tag' }).expect(201);
    await waitFor(() => receiver.on('/metrics-hook').length > 0, { timeoutMs: 20_000, label: 'a delivery' });

    const res = await request(app.server).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/v1/tags',
        status: '200',
        method: 'GET',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: '/v1/tags/:id', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_in_flight')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'queue_jobs', { queue: 'maintenance', state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(
      sample(text, 'ledger_postings_total', { source_type: 'MANUAL', status: 'posted' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE webhook_deliveries_total counter');

    // Deliveries are the dispatcher's: its own /metrics shows them.
    const fromDispatcher = await waitFor(
      async () => {
        const scrape = await request(dispatcher.health)
          .get('/metrics')
          .set('Authorization', `Bearer ${TOKEN}`);
        return scrape.status === 200 &&
          (sample(scrape.text, 'webhook_deliveries_total', { outcome: 'succeeded' }) ?? 0) >= 1
          ? scrape.text
          : undefined;
      },
      { timeoutMs: 20_000, label: 'the delivery counted' },
    );
    expect(
      sample(fromDispatcher, 'webhook_delivery_duration_seconds_count', { outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(fromDispatcher, 'queue_jobs', { queue: 'webhook-deliveries', state: 'waiting' }),
    ).toBeGreaterThanOrEqual(0);

    // Every series the Grafana dashboard queries is one of the two processes' series.
    const dashboard = JSON.parse(
      readFileSync(path.join(__dirname, '../../docker/grafana/erp-api-dashboard.json'), 'utf8'),
    ) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const functions = ['rate', 'sum', 'max', 'histogram_quantile', 'by', 'le'];
    // Label selectors, ranges and `by (...)` lists removed, the words left are functions and series.
    const names = new Set(
      exprs.flatMap((e) =>
        (e.replace(/by \([^)]*\)|\{[^}]*\}|\[[^\]]*\]/g, ' ').match(/[a-z][a-z0-9_]*/g) ?? []).filter(
          (n) => !functions.includes(n),
        ),
      ),
    );
    expect(names.size).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      expect(`${text}\n${fromDispatcher}`).toMatch(new RegExp(`^# TYPE ${base} `, 'm'));
    }
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('is not served', async () => {
    const res = await request(app.server).get('/metrics').set('Authorization', 'Bearer anything').expect(404);
    expect(res.body.code).toBe('not_found');
  });
});
