import { expectEvent } from '../support/expect-event';
import { INestApplicationContext } from '@nestjs/common';
import { api, expectError } from '../support/http';
import { startDispatcher } from '../support/dispatcher';
import { eventCountsSince, eventsSince, lastEventId } from '../support/event-counts';
import { waitFor } from '../support/eventually';
import { startTestApp, TestApp } from '../support/test-app';
import { tagNames } from './support/imported-rows';

const FINISHED = ['completed', 'completed_with_errors', 'failed'];

describe('bulk imports', () => {
  let app: TestApp;
  let worker: INestApplicationContext | undefined;
  let entityId: string;
  let base: string;
  let migration: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    entityId = app.seed.entities.primary.id;
    base = `/v1/entities/${entityId}/migration/imports`;
    migration = api(app, app.seed.entities.primary.keys.migration);
  });
  afterAll(async () => {
    await worker?.close();
    await app.close();
  });

  const finished = (id: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const res = await migration.get(`${base}/${id}`).expect(200);
        return FINISHED.includes(res.body.status) && res.body;
      },
      { timeoutMs, everyMs: 100, label: `import ${id} finished` },
    );

  // Counts over thousands of tags by name prefix: no route filters tags by name.
  const tagCount = async (prefix: string) => (await tagNames(app, prefix)).length;

  /** 1,000 tag records; rows 100, 200, ..., 1000 are bad in different ways. */
  const thousand = () =>
    Array.from({ length: 1000 }, (_, i) => {
      const row = i + 1;
      if (row % 100 !== 0) return { external_id: `T-${row}`, name: `Imported ${row}`, color: '#00aa00' };
      const bad = [
        { external_id: `T-${row}` },
        { external_id: `T-${row}`, name: 42 },
        { external_id: `T-${row}`, name: 'x', color: 'green' },
        { external_id: `T-${row}`, name: 'x', unknown_field: 1 },
        { name: 'no external id' },
        { external_id: 7, name: 'numeric external id' },
        'not an object',
        { external_id: `T-${row}`, name: '' },
        { external_id: `T-${row}`, name: 'y'.repeat(101) },
        null,
      ];
      return bad[row / 100 - 1];
    });

  it('imports 1,000 records with 10 bad rows, then imports them again without creating anything twice', async () => {
    worker = await startDispatcher(app);
    // Events already there (the seed's fixtures) are not the import's.
    const since = await lastEventId(app);
    const created = await migration.post(base).send({ resource: 'tags', records: thousand() }).expect(201);
    expect(created.body).toMatchObject({
      object: 'import',
      resource: 'tags',
      status: 'queued',
      total: 1000,
      processed: 0,
    });
    const done = await finished(created.body.id);
    expect(done).toMatchObject({
      status: 'completed_with_errors',
      total: 1000,
      processed: 1000,
      succeeded: 990,
      failed: 10,
    });
    expect(await tagCount('Imported ')).toBe(990);

    const errors = await migration.get(`${base}/${created.body.id}/errors?limit=100`).expect(200);
    expect(errors.body).toMatchObject({ object: 'list', has_more: false });
    expect(errors.body.data.map((e: { row: number }) => e.row)).toEqual([
      100, 200, 300, 400, 500, 600, 700, 800, 900, 1000,
    ]);
    expect(errors.body.data[0]).toMatchObject({
      object: 'import_error',
      external_id: 'T-100',
      error: {
        error: 'parameter_missing',
        code: 'parameter_missing',
        param: 'name',
        type: 'validation_error',
      },
    });
    // A row's error is the flat envelope without request_id (no request produced it).
    expect(errors.body.data[0].error).not.toHaveProperty('request_id');
    expect(
      errors.body.data.map(
        (e: { error: { code: string; param?: string } }) => `${e.error.code}:${e.error.param ?? ''}`,
      ),
    ).toEqual([
      'parameter_missing:name',
      'parameter_invalid:name',
      'parameter_invalid:color',
      'parameter_unknown:unknown_field',
      'parameter_missing:external_id',
      'parameter_invalid:external_id',
      'parameter_invalid:',
      'parameter_invalid:name',
      'parameter_invalid:name',
      'parameter_invalid:',
    ]);
    const paged = await migration
      .get(`${base}/${created.body.id}/errors?limit=4&starting_after=${errors.body.data[3].id}`)
      .expect(200);
    expect(paged.body.data.map((e: { row: number }) => e.row)).toEqual([500, 600, 700, 800]);

    expect(await eventCountsSince(app, since, 'setting.tag.', 'migration.import.')).toEqual([
      { type: 'migration.import.completed', n: 1 },
      { type: 'migration.import.started', n: 1 },
      { type: 'setting.tag.created', n: 990 },
    ]);
    await expectEvent(app, 'migration.import.started', { id: created.body.id, resource: 'tags' });
    await expectEvent(app, 'migration.import.completed', {
      id: created.body.id,
      status: 'completed_with_errors',
      succeeded: 990,
    });

    const again = await migration.post(base).send({ resource: 'tags', records: thousand() }).expect(201);
    expect(await finished(again.body.id)).toMatchObject({
      status: 'completed_with_errors',
      succeeded: 990,
      failed: 10,
    });
    expect(await tagCount('Imported ')).toBe(990);
    expect(await eventCountsSince(app, since, 'setting.tag.')).toEqual([
      { type: 'setting.tag.created', n: 990 },
    ]);

    // A changed record updates the mapped tag through the service (setting.tag.updated), still without a new row.
    const changed = await migration
      .post(base)
      .send({ resource: 'tags', records: [{ external_id: 'T-1', name: 'Imported 1 renamed' }] })
      .expect(201);
    expect(await finished(changed.body.id)).toMatchObject({ status: 'completed', succeeded: 1, failed: 0 });
    expect(await tagCount('Imported ')).toBe(990);
    expect((await tagNames(app, 'Imported 1 ')).filter((n) => n === 'Imported 1 renamed')).toHaveLength(1);
  });

  it('takes NDJSON uploads: malformed lines and unknown resources are row errors', async () => {
    worker ??= await startDispatcher(app);
    const ndjson = [
      '{"external_id":"N-1","name":"Nd 1"}',
      '',
      '{"external_id":"N-2","name":',
      '{"external_id":"N-3","name":"Nd 3"}',
    ].join('\n');
    const res = await migration
      .post(`${base}?resource=tags`)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson)
      .expect(201);
    expect(res.body.total).toBe(3);
    expect(await finished(res.body.id)).toMatchObject({
      status: 'completed_with_errors',
      succeeded: 2,
      failed: 1,
    });
    const errors = await migration.get(`${base}/${res.body.id}/errors`).expect(200);
    expect(errors.body.data).toEqual([
      expect.objectContaining({
        row: 3,
        external_id: null,
        error: expect.objectContaining({ code: 'invalid_json' }),
      }),
    ]);

    const accounts = await migration
      .post(`${base}?resource=widgets`)
      .set('Content-Type', 'application/x-ndjson')
      .send('{"external_id":"A-1","name":"Acme"}\n{"external_id":"A-2"}')
      .expect(201);
    expect(await finished(accounts.body.id)).toMatchObject({
      status: 'completed_with_errors',
      succeeded: 0,
      failed: 2,
    });
    const accountErrors = await migration.get(`${base}/${accounts.body.id}/errors`).expect(200);
    expect(accountErrors.body.data[0]).toMatchObject({
      row: 1,
      external_id: 'A-1',
      error: { code: 'parameter_invalid', param: 'resource' },
    });
  });

  it('resumes an import after its worker is stopped mid-run, without duplicates', async () => {
    worker ??= await startDispatcher(app);
    const rows = 6000;
    const ndjson = Array.from({ length: rows }, (_, i) =>
      JSON.stringify({ external_id: `R-${i}`, name: `Resumed ${i}` }),
    ).join('\n');
    const res = await migration
      .post(`${base}?resource=tags`)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson)
      .expect(201);
    await waitFor(
      async () => (await migration.get(`${base}/${res.body.id}`).expect(200)).body.processed > 0,
      { timeoutMs: 60_000, everyMs: 10, label: 'the first rows processed' },
    );
    await worker.close();
    worker = undefined;
    const stopped = (await migration.get(`${base}/${res.body.id}`).expect(200)).body;
    expect(stopped.status).toBe('running');
    expect(stopped.processed).toBeGreaterThan(0);
    expect(stopped.processed).toBeLessThan(rows);
    expect(await tagCount('Resumed ')).toBe(stopped.processed);

    worker = await startDispatcher(app);
    // The stopped worker's job may stay claimed until the queue's stalled-job check releases it.
    expect(await finished(res.body.id, 150_000)).toMatchObject({
      status: 'completed',
      processed: rows,
      succeeded: rows,
      failed: 0,
    });
    expect(await tagCount('Resumed ')).toBe(rows);
    expect(new Set(await tagNames(app, 'Resumed ')).size).toBe(rows);
    const created = await eventsSince(app, undefined, 'setting.tag.created');
    expect(created.filter((e) => String(e.data.object.name).startsWith('Resumed '))).toHaveLength(rows);
    // 6,000 rows imported across two workers: generous for a loaded CI machine.
  }, 180_000);

  it('runs while the entity is frozen', async () => {
    worker ??= await startDispatcher(app);
    const cutover = `/v1/entities/${entityId}/migration/cutover`;
    await migration.post(`${cutover}/freeze`).send({ reason: 'import' }).expect(200);
    try {
      expectError(await migration.post('/v1/tags').send({ name: 'x' }), 423, 'entity_frozen');
      const res = await migration
        .post(base)
        .send({ resource: 'tags', records: [{ external_id: 'F-1', name: 'Frozen import' }] })
        .expect(201);
      expect(await finished(res.body.id)).toMatchObject({ status: 'completed', succeeded: 1 });
      expect(await tagCount('Frozen import')).toBe(1);
    } finally {
      await migration.post(`${cutover}/unfreeze`).send({}).expect(200);
    }
  });

  it('validates the request, needs migrations scopes and isolates entities and modes', async () => {
    expectError(
      await migration.post(base).send({ records: [{ external_id: 'x' }] }),
      400,
      'parameter_missing',
      { param: 'resource' },
    );
    expectError(await migration.post(base).send({ resource: 'tags' }), 400, 'parameter_missing', {
      param: 'records',
    });
    expectError(
      await migration.post(base).send({ resource: 'tags', records: {} }),
      400,
      'parameter_invalid',
      { param: 'records' },
    );
    expectError(
      await migration.post(base).send({ resource: 'tags', records: [] }),
      400,
      'parameter_invalid',
      { param: 'records' },
    );
    expectError(
      await migration.post(base).send({ resource: 'Tags!', records: [{}] }),
      400,
      'parameter_invalid',
      { param: 'resource' },
    );
    expectError(
      await migration.post(base).send({ resource: 'tags', records: [{}], extra: 1 }),
      400,
      'parameter_unknown',
      { param: 'extra' },
    );
    expectError(
      await migration.post(base).set('Content-Type', 'application/x-ndjson').send('{"external_id":"a"}'),
      400,
      'parameter_missing',
      { param: 'resource' },
    );
    expectError(await migration.get(`${base}/0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b`), 404, 'not_found');
    expectError(await migration.get(`${base}/nope/errors`), 404, 'not_found');

    const res = await migration
      .post(base)
      .send({ resource: 'tags', records: [{ external_id: 'I-1', name: 'Isolated' }] })
      .expect(201);
    const keys = app.seed.entities.primary.keys;
    expectError(
      await api(app, keys.read_only)
        .post(base)
        .send({ resource: 'tags', records: [{}] }),
      403,
      'insufficient_scope',
      { required: 'migrations:write' },
    );
    await api(app, keys.read_only).get(`${base}/${res.body.id}`).expect(200);
    expectError(await api(app, keys.orders_only).get(`${base}/${res.body.id}`), 403, 'insufficient_scope', {
      required: 'migrations:read',
    });
    expectError(await api(app, keys.test).get(`${base}/${res.body.id}`), 404, 'not_found');
    const secondary = app.seed.entities.secondary;
    expectError(
      await api(app, secondary.keys.live).get(`${base}/${res.body.id}`),
      403,
      'entity_isolation_violation',
    );
    expectError(
      await api(app, secondary.keys.live).get(
        `/v1/entities/${secondary.id}/migration/imports/${res.body.id}`,
      ),
      404,
      'not_found',
    );
  });
});
