import http from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { waitFor } from '../support/eventually';
import { api } from '../support/http';
import { SlowController, SlowTestModule } from '../support/test-routes';
import { startTestApp, TestApp } from '../support/test-app';

describe('structured request logs', () => {
  let app: TestApp;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await startTestApp({ LOG_LEVEL: 'info' }, { logDestination: sink });
  });
  afterAll(() => app.close());

  it('writes one JSON line per request with id, method, path, status, duration and key id, never the key', async () => {
    const key = app.seed.entities.primary.keys.live;
    const res = await api(app, key).post('/v1/tags').send({ name: 'logged', colour: 'red' }).expect(400);
    await api(app, key).get('/v1/tags').expect(200);
    const line = lines.find((l) => (l.req as { id?: string } | undefined)?.id === res.headers['request-id']);
    expect(line).toMatchObject({
      req: { method: 'POST', path: '/v1/tags' },
      res: { status: 400, error_code: 'parameter_unknown' },
    });
    expect(typeof line?.responseTime).toBe('number');
    expect(typeof line?.api_key_id).toBe('string');
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(key);
    expect(everything).not.toMatch(/key_live_ent_/);
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests and refuses new connections', async () => {
    const app = await startTestApp({}, { extraModules: [SlowTestModule] });
    const { port } = app.server.address() as { port: number };
    const before = SlowController.started;
    const started = request(app.server)
      .get('/v1/test-slow?ms=600')
      .then((r) => r);
    await waitFor(() => SlowController.started !== before, {
      everyMs: 10,
      label: 'the slow request started',
    });
    const closing = app.close();
    await waitFor(() => !app.server.listening, { everyMs: 10, label: 'the listener closed' });
    const refused = await new Promise<string>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, () =>
        resolve('answered'),
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    const res = await started;
    await closing;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true });
    expect(refused).toBe('ECONNREFUSED');
  });
});
