import { ActivityLog } from '#platform/activity/activity-log';
import { api, expectError } from '../support/http';
import { withTableRenamedAway } from '../support/database';
import { waitFor } from '../support/eventually';
import { listAll, Listed } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';

describe('activity log', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let keys: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    keys = app.seed.entities.primary.keys;
    live = api(app, keys.live);
  });
  afterAll(() => app.close());

  const keyId = async (name: string) => {
    const all = await listAll(live, `/v1/entities/${app.seed.entities.primary.id}/api_keys`);
    const named = all.filter((k) => k.name === name);
    expect(named).toHaveLength(1);
    return named[0].id;
  };
  /** The activity rows of these requests, through the activity list. */
  const activityOf = async (client: ReturnType<typeof api>, requestIds: string[]) =>
    (await listAll<Listed & { request_id: string | null; path: string }>(client, '/v1/activity')).filter(
      (r) => r.request_id !== null && requestIds.includes(r.request_id),
    );

  it('records who did what to which resource, with status and request id', async () => {
    const created = await live.post('/v1/tags').send({ name: 'logged' }).expect(201);
    const id = created.body.id as string;
    const patched = await live
      .patch(`/v1/entities/${app.seed.entities.primary.id}/tags/${id}`)
      .send({ name: 'renamed' })
      .expect(200);
    const failed = await live.patch('/v1/tags/0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b').send({ name: 'x' });
    expect(failed.status).toBe(404);
    await live.get(`/v1/tags/${id}`).expect(200);

    const list = await waitFor(async () => {
      const res = await live.get(`/v1/activity?resource_type=tags&resource_id=${id}`).expect(200);
      return res.body.data.length === 2 && res;
    });
    const liveKey = await keyId('QA live');
    expect(list.body).toMatchObject({ object: 'list', has_more: false, url: '/v1/activity' });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        object: 'activity',
        api_key_id: liveKey,
        mode: 'live',
        livemode: true,
        method: 'PATCH',
        path: `/v1/entities/${app.seed.entities.primary.id}/tags/${id}`,
        resource_type: 'tags',
        resource_id: id,
        status: 200,
        request_id: patched.headers['request-id'],
      }),
      expect.objectContaining({
        method: 'POST',
        path: '/v1/tags',
        resource_id: id,
        status: 201,
        request_id: created.headers['request-id'],
      }),
    ]);
    const errors = await waitFor(async () => {
      const res = await live.get('/v1/activity?resource_id=0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b').expect(200);
      return res.body.data.length === 1 && res;
    });
    expect(errors.body.data[0]).toMatchObject({ status: 404, request_id: failed.headers['request-id'] });
    // reads are not mutations
    const all = await live.get('/v1/activity?limit=100').expect(200);
    expect(all.body.data.every((e: { method: string }) => e.method !== 'GET')).toBe(true);
  });

  it('filters by key and time and pages with cursors, per mode', async () => {
    const migrationKey = await keyId('QA migration');
    const migration = api(app, keys.migration);
    const start = new Date().toISOString();
    for (const name of ['a', 'b', 'c']) await migration.post('/v1/tags').send({ name }).expect(201);
    const byKey = await waitFor(async () => {
      const res = await live
        .get(`/v1/activity?api_key_id=${migrationKey}&created_after=${start}`)
        .expect(200);
      return res.body.data.length === 3 && res;
    });
    expect(byKey.body.data.every((e: { api_key_id: string }) => e.api_key_id === migrationKey)).toBe(true);
    const page1 = await live.get(`/v1/activity?api_key_id=${migrationKey}&limit=2`).expect(200);
    expect(page1.body.has_more).toBe(true);
    const page2 = await live
      .get(`/v1/activity?api_key_id=${migrationKey}&limit=2&starting_after=${page1.body.data[1].id}`)
      .expect(200);
    expect(page2.body.data).toEqual([byKey.body.data[2]]);
    const before = await live
      .get(`/v1/activity?api_key_id=${migrationKey}&created_before=${start}`)
      .expect(200);
    expect(before.body.data).toEqual([]);
    // test mode sees only test-mode activity
    await api(app, keys.test).post('/v1/tags').send({ name: 'test' }).expect(201);
    const testList = await waitFor(async () => {
      const res = await api(app, keys.test).get('/v1/activity').expect(200);
      return res.body.data.length === 1 && res;
    });
    expect(testList.body.data[0]).toMatchObject({ mode: 'test', livemode: false });
    // another entity sees none of it
    expect(
      (await api(app, app.seed.entities.secondary.keys.live).get('/v1/activity').expect(200)).body.data,
    ).toEqual([]);
  });

  it('validates filters and needs activity:read', async () => {
    expectError(await live.get('/v1/activity?api_key_id=nope'), 400, 'parameter_invalid', {
      param: 'api_key_id',
    });
    expectError(await live.get('/v1/activity?created_after=yesterday'), 400, 'parameter_invalid', {
      param: 'created_after',
    });
    expectError(await api(app, keys.orders_only).get('/v1/activity'), 403, 'insufficient_scope', {
      required: 'activity:read',
    });
    await api(app, keys.read_only).get('/v1/activity').expect(200);
  });

  it('records every one of many concurrent mutations, each row written once', async () => {
    const log = app.get(ActivityLog) as unknown as { write(rows: unknown[]): Promise<void> };
    const write = jest.spyOn(log, 'write');
    try {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          live
            .post('/v1/tags')
            .send({ name: `burst ${i}` })
            .expect(201),
        ),
      );
      const requestIds = created.map((r) => r.headers['request-id'] as string).sort();
      const rows = await waitFor(async () => {
        const found = await activityOf(live, requestIds);
        return found.length >= 20 && found;
      });
      expect(rows.map((r) => r.request_id).sort()).toEqual(requestIds);
      const rowsWritten = write.mock.calls.reduce((n, [batch]) => n + batch.length, 0);
      expect(rowsWritten).toBe(20);
    } finally {
      write.mockRestore();
    }
  });

  it('never fails the request it describes when the log cannot be written', async () => {
    // The write of queued rows (ActivityLog.write, private) is what meets the failure.
    const log = app.get(ActivityLog) as unknown as { write(rows: unknown[]): Promise<void> };
    const record = jest.spyOn(log, 'write');
    // The failure is made in storage: the log's table is renamed away for one request.
    try {
      await withTableRenamedAway(app, 'activity_log', async () => {
        await live.post('/v1/tags').send({ name: 'unlogged' }).expect(201);
        // The write runs after the response, against the missing table, and settles without throwing.
        await waitFor(() => record.mock.results.length > 0, { label: 'the activity write' });
        await expect(record.mock.results[0].value).resolves.toBeUndefined();
      });
    } finally {
      record.mockRestore();
    }
  });

  it('writes the rows still queued when the app shuts down', async () => {
    const other = await startTestApp();
    const log = other.get(ActivityLog);
    const requestId = `req_shutdown_${Date.now()}`;
    try {
      // Queued, then shut down before the queue's write has started.
      log.recordRequest({
        entityId: other.seed.entities.primary.id,
        livemode: true,
        apiKeyId: '00000000-0000-0000-0000-000000000000',
        method: 'POST',
        path: '/v1/tags',
        resourceType: 'tags',
        resourceId: null,
        status: 201,
        requestId,
      });
      await log.onApplicationShutdown();
    } finally {
      await other.close();
    }
    // Read back through another instance on the same database (the closed one answers nothing).
    const after = await startTestApp({}, { sameDatabaseAs: other });
    try {
      const rows = await activityOf(api(after, after.seed.entities.primary.keys.live), [requestId]);
      expect(rows.map((r) => r.path)).toEqual(['/v1/tags']);
    } finally {
      await after.close();
    }
  });
});
