import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EncryptWebhookSecrets1765310000000 } from '../../db/migrations/1765310000000-encrypt-webhook-secrets';
import { SIGNING_SECRET_PURPOSE } from '#contexts/webhooks';
import { SecretBox } from '#platform/crypto/secret-box';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { insertLegacyEndpoint, rowsContaining, storedSecret } from './webhook-harness';

/** Signing secrets are encrypted at rest and never travel in job payloads. */
describe('webhook signing secrets at rest', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    base = `/v1/entities/${app.seed.entities.primary.id}/webhook_endpoints`;
  });
  afterAll(() => app.close());

  it('stores the secret encrypted and puts none in the database in clear or in queued jobs', async () => {
    const live = api(app, app.seed.entities.primary.keys.live);
    const created = await live
      .post(base)
      .send({ url: 'http://127.0.0.1:9/secrets', enabled_events: ['*'] })
      .expect(201);
    const secret: string = created.body.secret;
    await live.post(`${base}/${created.body.id}/test`).expect(200);
    // The secret at rest, and every stored row, are storage no route shows.
    expect(await storedSecret(app, created.body.id)).toMatch(/^enc:v1:dev:/);
    expect(await rowsContaining(app, secret.slice(6))).toBe(0);
    const queue = app.get<Queue>(getQueueToken(QUEUE_NAMES['webhook-deliveries']) as never);
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    expect(jobs.length).toBeGreaterThan(0);
    expect(JSON.stringify(jobs.map((j) => j.data))).not.toContain(secret.slice(6));
  });

  it('encrypts the plaintext secrets of existing rows in its migration', async () => {
    const plain = `whsec_${randomBytes(32).toString('hex')}`;
    // A row from before encryption, as the migration finds it in storage.
    const id = await insertLegacyEndpoint(app, app.seed.entities.primary.id, plain);
    const runner = app.get(DataSource).createQueryRunner();
    try {
      await new EncryptWebhookSecrets1765310000000().up(runner);
    } finally {
      await runner.release();
    }
    const stored = await storedSecret(app, id);
    expect(stored).toMatch(/^enc:v1:/);
    expect(app.get(SecretBox).open(stored, SIGNING_SECRET_PURPOSE)).toBe(plain);
  });
});
