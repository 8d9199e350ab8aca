import { Writable } from 'node:stream';
import type request from 'supertest';
import { Pool } from 'pg';
import { setDatabaseReachable } from '../support/database';
import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { listInEverySeededScope } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';
import { readRunState } from '../support/test-env';

/**
 * A database outage answers 503 service_unavailable with Retry-After (never 500), every log line
 * stays one JSON object, and the API recovers by itself. The outage is this file's database
 * refusing connections (the server and the other files' databases are untouched).
 */
describe('database outage', () => {
  let app: TestApp;
  let admin: Pool;
  let dbName: string;
  const raw: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        raw.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await startTestApp({ LOG_LEVEL: 'info' }, { logDestination: sink });
    app.db.on('error', () => undefined);
    admin = new Pool({ connectionString: readRunState().adminUrl, max: 1 });
    dbName = new URL(app.databaseUrl).pathname.slice(1);
  });
  afterAll(async () => {
    await setDatabaseReachable(admin, dbName, true).catch(() => undefined);
    await app.close();
    await admin.end();
  });

  const cutOff = () => setDatabaseReachable(admin, dbName, false);

  it('answers 503 with Retry-After during the outage, logs JSON only, and recovers after it', async () => {
    const key = app.seed.entities.primary.keys.live;
    await api(app, key).get('/v1/tags').expect(200);
    await cutOff();

    const statuses: number[] = [];
    const answers: { read: request.Response; write: request.Response }[] = [];
    for (let i = 0; i < 20; i++) {
      const read = await api(app, key).get('/v1/tags');
      const write = await api(app, key)
        .post('/v1/tags')
        .send({ name: `during outage ${i}` });
      statuses.push(read.status, write.status);
      answers.push({ read, write });
    }
    expectError(answers[0].read, 503, 'service_unavailable');
    expect(answers[0].read.headers['retry-after']).toBe('5');
    expectError(answers[0].write, 503, 'service_unavailable');
    expect(statuses.filter((s) => s !== 503)).toEqual([]);

    await setDatabaseReachable(admin, dbName, true);
    // Until it answers 200, the API answers 503 and nothing else.
    const whileRecovering = new Set<number>();
    await waitFor(
      async () => {
        const res = await api(app, key).get('/v1/tags');
        whileRecovering.add(res.status);
        return res.status === 200;
      },
      { timeoutMs: 20_000, everyMs: 100, label: 'the API answering again' },
    );
    expect([...whileRecovering].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    await api(app, key).post('/v1/tags').send({ name: 'after outage' }).expect(201);
    const refused = (await listInEverySeededScope(app, '/v1/tags')).filter((t) =>
      String(t.name).startsWith('during outage'),
    );
    expect(refused).toEqual([]);

    // Every line written is one JSON object; none is "[object Object]"; outages log under err.
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(raw.join('\n')).not.toContain('[object Object]');
    const outage = lines.find((l) => l.msg === 'service unavailable');
    expect(outage).toMatchObject({ level: 40, err: { message: expect.any(String) } });
    expect(lines.some((l) => l.msg === 'unhandled error')).toBe(false);
  });
});
