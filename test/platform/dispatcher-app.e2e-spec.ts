import request from 'supertest';
import { startDispatcher, Dispatcher } from '../../apps/webhook-dispatcher/bootstrap';
import { waitFor } from '../support/eventually';
import { idempotencyRecords, insertExpiredIdempotencyKey } from '../support/database';
import { startTestApp, TestApp } from '../support/test-app';

describe('the dispatcher app', () => {
  let app: TestApp;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    app = await startTestApp();
    dispatcher = await startDispatcher(app.config, 0);
  });
  afterAll(async () => {
    await dispatcher.close();
    await app.close();
  });

  it('answers /health, and /ready once the database and the queue answer', async () => {
    await request(dispatcher.health).get('/health').expect(200, { status: 'ok' });
    const ready = await request(dispatcher.health).get('/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
    const missing = await request(dispatcher.health).get('/nothing').expect(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('serves none of the API routes', async () => {
    await request(dispatcher.health).get('/v1/tags').expect(404);
  });

  it('runs the maintenance queue: an expired idempotency key is purged by its job', async () => {
    const { getQueueToken } = await import('@nestjs/bullmq');
    const queue = dispatcher.app.get(getQueueToken('maintenance'), {
      strict: false,
    }) as import('bullmq').Queue;
    // Idempotency rows are storage no route lists: the expired one is written and counted in SQL.
    // The INSERT throws unless it wrote the row. Counting it back here would race the
    // dispatcher's own scheduled purge, which may run in between (either purge is this queue's job).
    await insertExpiredIdempotencyKey(app, 'expired-key');
    const stored = async () => (await idempotencyRecords(app, 'expired-key')).length;
    await queue.add('purge-idempotency-keys', {});
    await waitFor(async () => (await stored()) === 0, { label: 'the expired key purged' });
    expect(await stored()).toBe(0);
  });
});
