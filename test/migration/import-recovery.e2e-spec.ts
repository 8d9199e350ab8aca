import { expectEvent } from '../support/expect-event';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { queueConnection } from '#platform/queue/queue.module';
import { ImportsService } from '#contexts/migration';
import { importRows } from '../support/database';
import { failImportCheckpoints } from '../support/db-faults';
import { startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { api } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { tagNames } from './support/imported-rows';

/**
 * The dispatcher's import sweeper: an unfinished import whose job failed without ending it, or
 * whose job is gone from the queue, is queued again and completes, each record once. And an
 * import whose every attempt fails ends `failed`, once.
 */
describe('imports whose job failed or is gone', () => {
  let app: TestApp;
  let dispatcher: INestApplicationContext | undefined;
  let base: string;
  let migration: ReturnType<typeof api>;
  let queue: Queue;

  beforeAll(async () => {
    // Two attempts, so an import that fails every time ends quickly.
    app = await startTestApp({ IMPORT_MAX_ATTEMPTS: 2 });
    base = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    migration = api(app, app.seed.entities.primary.keys.migration);
    queue = new Queue(QUEUE_NAMES['migration-imports'], queueConnection(app.config));
  });
  afterAll(async () => {
    await dispatcher?.close();
    await queue.close();
    await app.close();
  });

  const records = (prefix: string) =>
    Array.from({ length: 5 }, (_, i) => ({ external_id: `${prefix}-${i}`, name: `${prefix} tag ${i}` }));

  const importOf = async (prefix: string): Promise<string> =>
    (
      await migration
        .post(base)
        .send({ resource: 'tags', records: records(prefix) })
        .expect(201)
    ).body.id as string;

  it('queues them again, and each completes with every record once', async () => {
    // A job failed for good by a worker that is not the import worker: the import stays queued.
    const failedId = await importOf('Failed job');
    const stranger = new Worker(
      QUEUE_NAMES['migration-imports'],
      async () => {
        throw new UnrecoverableError('failed outside the import worker');
      },
      queueConnection(app.config),
    );
    try {
      await waitFor(async () => (await queue.getJob(failedId))?.failedReason, {
        label: 'the job failed',
      });
    } finally {
      await stranger.close();
    }
    expect(await queue.getJobState(failedId)).toBe('failed');

    // A job removed from the queue (an operator, a Redis restart without persistence).
    const goneId = await importOf('Gone job');
    await queue.remove(goneId);
    expect(await queue.getJob(goneId)).toBeUndefined();
    for (const id of [failedId, goneId])
      expect((await migration.get(`${base}/${id}`).expect(200)).body.status).toBe('queued');

    dispatcher = await startDispatcher(app, { QUEUE_LOCK_MS: 1000, IMPORT_SWEEP_INTERVAL_MS: 200 });
    for (const id of [failedId, goneId]) {
      const done = await waitFor(
        async () => {
          const body = (await migration.get(`${base}/${id}`).expect(200)).body;
          return body.status !== 'queued' && body.status !== 'running' && body;
        },
        { timeoutMs: 30_000, everyMs: 100, label: `import ${id} finished` },
      );
      expect(done).toMatchObject({ status: 'completed', processed: 5, succeeded: 5, failed: 0 });
    }
    // A finished import's rows are deleted with its completion.
    for (const id of [failedId, goneId]) expect(await importRows(app, id)).toEqual([]);
    expect((await tagNames(app, 'Failed job tag ')).sort()).toEqual(records('Failed job').map((r) => r.name));
    expect((await tagNames(app, 'Gone job tag ')).sort()).toEqual(records('Gone job').map((r) => r.name));
  });

  it('fails an import whose every attempt fails, once, with migration.import.failed', async () => {
    dispatcher ??= await startDispatcher(app, { QUEUE_LOCK_MS: 1000, IMPORT_SWEEP_INTERVAL_MS: 200 });
    const fault = await failImportCheckpoints(app);
    let id: string;
    try {
      id = await importOf('Doomed');
      const failed = await waitFor(
        async () => {
          const body = (await migration.get(`${base}/${id}`).expect(200)).body;
          return body.status === 'failed' && body;
        },
        { timeoutMs: 30_000, everyMs: 100, label: `import ${id} failed` },
      );
      // The database's error stays in the log; the client reads what happened.
      expect(failed).toMatchObject({ status: 'failed', processed: 0, succeeded: 0 });
      expect(failed.failure_reason).toBe(
        "An internal error stopped each of the import's 2 attempt(s); the rows committed before it stay imported.",
      );
    } finally {
      await fault.remove();
    }
    // No row of it landed (each attempt rolled back), and the sweeper leaves a failed import alone.
    expect(await tagNames(app, 'Doomed tag ')).toEqual([]);
    expect(await importRows(app, id!)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await migration.get(`${base}/${id}`).expect(200)).body.status).toBe('failed');
    const events = (await outbox(app).all()).filter(
      (e) => e.type === 'migration.import.failed' && e.data.object.id === id,
    );
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toMatchObject({ status: 'failed', failure_reason: expect.any(String) });
    await expectEvent(app, 'migration.import.failed', {
      id,
      status: 'failed',
      failure_reason: expect.any(String),
    });
  });

  it('deletes day-old rows that no unfinished import will read, and keeps the rows of a queued import', async () => {
    // No worker from here on, so the import below stays queued with its rows.
    await dispatcher?.close();
    dispatcher = undefined;
    const queued = await importOf('Queued rows');
    // SQL: rows left by an API stopped mid-upload (no import row), one set old and one recent; an
    // old row left under an import the first case completed; the queued import's rows made old.
    const [abandoned, recent] = [
      '019a0000-0000-7000-8000-0000000000a1',
      '019a0000-0000-7000-8000-0000000000a2',
    ];
    const finished = (
      await app.db.query<{ id: string }>(`SELECT id FROM imports WHERE status = 'completed' LIMIT 1`)
    ).rows[0].id;
    await app.db.query(
      `INSERT INTO import_rows (import_id, idx, line, text, created_at) VALUES
         ($1, 0, 1, '{}', now() - interval '25 hours'), ($1, 1, 2, '{}', now() - interval '25 hours'),
         ($2, 0, 1, '{}', now() - interval '1 hour'), ($3, 100, 101, '{}', now() - interval '25 hours')`,
      [abandoned, recent, finished],
    );
    await app.db.query(
      `UPDATE import_rows SET created_at = now() - interval '25 hours' WHERE import_id = $1`,
      [queued],
    );
    expect((await migration.get(`${base}/${queued}`).expect(200)).body.status).toBe('queued');
    expect(await app.get(ImportsService).purgeUnreadRows()).toBe(3);
    expect(await importRows(app, abandoned)).toEqual([]);
    expect(await importRows(app, finished)).toEqual([]);
    expect(await importRows(app, recent)).toHaveLength(1);
    expect((await importRows(app, queued)).map((r) => r.text)).toEqual(
      records('Queued rows').map((r) => JSON.stringify(r)),
    );
    await app.db.query(`DELETE FROM import_rows WHERE import_id = $1`, [recent]);
  });
});
