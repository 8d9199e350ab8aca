import { expectEvent } from '../support/expect-event';
import { eventually } from '../support/eventually';
import { api, expectError } from '../support/http';
import { listAll } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('cutover freeze', () => {
  let app: TestApp;
  let second: TestApp;
  let keys: Record<string, string>;
  let entityId: string;
  let base: string;
  let live: ReturnType<typeof api>;
  let migration: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    second = await startTestApp({}, { sameDatabaseAs: app });
    keys = app.seed.entities.primary.keys;
    entityId = app.seed.entities.primary.id;
    base = `/v1/entities/${entityId}/migration/cutover`;
    live = api(app, keys.live);
    migration = api(app, keys.migration);
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });

  it('freezes, repeats idempotently, reads, and unfreezes with an audit log and events', async () => {
    const before = await migration.get(base).expect(200);
    expect(before.body).toMatchObject({
      object: 'entity_freeze_status',
      entity_id: entityId,
      frozen: false,
      freeze_token: null,
    });

    const frozen = await migration.post(`${base}/freeze`).send({ reason: 'cutover rehearsal' }).expect(200);
    expect(frozen.body).toMatchObject({
      object: 'entity_freeze_status',
      entity_id: entityId,
      frozen: true,
      reason: 'cutover rehearsal',
      idempotent: false,
      frozen_by: { user_id: null },
    });
    expect(frozen.body.freeze_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(frozen.body.frozen_at).toISOString()).toBe(frozen.body.frozen_at);
    expect(frozen.body.unfrozen_at).toBeUndefined();
    // The freeze names the key that froze, and the stored freeze (the status route) says the same.
    const keyId = (await listAll(live, `/v1/entities/${entityId}/api_keys`)).find(
      (k) => k.name === 'QA migration',
    )?.id;
    expect(keyId).toEqual(expect.any(String));
    expect(frozen.body.frozen_by.api_key_id).toBe(keyId);
    expect((await migration.get(base).expect(200)).body.frozen_by).toEqual(frozen.body.frozen_by);

    const again = await migration.post(`${base}/freeze`).send({ reason: 'second call' }).expect(200);
    expect(again.body).toMatchObject({
      frozen: true,
      freeze_token: frozen.body.freeze_token,
      idempotent: true,
      reason: 'cutover rehearsal',
    });

    const status = await migration.get(base).expect(200);
    expect(status.body).toMatchObject({
      frozen: true,
      freeze_token: frozen.body.freeze_token,
      idempotent: false,
    });
    // The flat form answers for the key's entity.
    expect((await migration.get('/v1/migration/cutover').expect(200)).body.entity_id).toBe(entityId);

    const unfrozen = await migration.post(`${base}/unfreeze`).send({ reason: 'rehearsal over' }).expect(200);
    expect(unfrozen.body).toMatchObject({
      frozen: false,
      freeze_token: null,
      reason: 'rehearsal over',
      frozen_at: frozen.body.frozen_at,
    });
    expect(new Date(unfrozen.body.unfrozen_at).getTime()).toBeGreaterThanOrEqual(
      new Date(frozen.body.frozen_at).getTime(),
    );
    expect((await migration.get(base).expect(200)).body.frozen).toBe(false);
    expectError(await migration.post(`${base}/unfreeze`).send({}), 409, 'invalid_state', {
      type: 'conflict',
    });

    const history = await migration.get(`${base}/history`).expect(200);
    expect(history.body).toMatchObject({ object: 'list', has_more: false, url: `${base}/history` });
    expect(history.body.data.map((h: { action: string; reason: string }) => [h.action, h.reason])).toEqual([
      ['unfreeze', 'rehearsal over'],
      ['freeze', 'cutover rehearsal'],
    ]);
    expect(history.body.data[1].actor).toEqual({ user_id: null, api_key_id: keyId });
    const page = await migration
      .get(`${base}/history?limit=1&starting_after=${history.body.data[0].id}`)
      .expect(200);
    expect(page.body.data.map((h: { action: string }) => h.action)).toEqual(['freeze']);

    const events = (await outbox(app).all()).filter((e) => e.type.startsWith('migration.'));
    expect(events.map((e) => e.type)).toEqual(['migration.frozen', 'migration.unfrozen']);
    expect(JSON.stringify(events)).not.toContain(frozen.body.freeze_token);
    await expectEvent(app, 'migration.frozen', { reason: 'cutover rehearsal' });
    await expectEvent(app, 'migration.unfrozen', { reason: 'rehearsal over' });
  });

  it('refuses mutations of every context with 423 while frozen, on every instance, and lets reads through', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'before freeze' }).expect(201)).body;
    const keysPath = `/v1/entities/${entityId}/api_keys`;
    const spare = (
      await live
        .post(keysPath)
        .send({ name: 'spare', mode: 'live', scopes: ['tags:read'] })
        .expect(201)
    ).body;
    const spare2 = (
      await live
        .post(keysPath)
        .send({ name: 'spare 2', mode: 'live', scopes: ['tags:read'] })
        .expect(201)
    ).body;
    const tagsWriter = api(
      app,
      (
        await live
          .post(keysPath)
          .send({ name: 'tags writer', mode: 'live', scopes: ['tags:write', 'migrations:read'] })
          .expect(201)
      ).body.secret,
    );
    const other = api(second, keys.live);
    // The second instance has cached the entity's state (not frozen) before the freeze.
    await other.patch(`/v1/tags/${tag.id}`).send({ name: 'before freeze' }).expect(200);
    const { freeze_token: token } = (
      await migration.post(`${base}/freeze`).send({ reason: 'cutover' }).expect(200)
    ).body;
    try {
      // It hears of the freeze through NOTIFY at the freeze's commit and forgets that state.
      expect(
        await eventually(
          async () =>
            (await other.patch(`/v1/tags/${tag.id}`).send({ name: 'before freeze' })).status === 423,
        ),
      ).toBe(true);
      const frozenCalls = [
        // catalog context: tags POST / PATCH / DELETE (flat and entity-prefixed)
        live.post('/v1/tags').send({ name: 'x' }),
        live.patch(`/v1/tags/${tag.id}`).send({ name: 'y' }),
        live.delete(`/v1/tags/${tag.id}`),
        live.post(`/v1/entities/${entityId}/tags`).send({ name: 'x' }),
        // platform API keys: create / rotate / revoke
        live.post(keysPath).send({ name: 'k', mode: 'live', scopes: ['tags:read'] }),
        live.post(`${keysPath}/${spare.id}/rotate`),
        live.post(`${keysPath}/${spare.id}/revoke`),
        // the second API instance refuses too
        other.post('/v1/tags').send({ name: 'x' }),
        other.delete(`/v1/tags/${tag.id}`),
        // a migration key without the token
        migration.post('/v1/tags').send({ name: 'x' }),
        migration.patch(`/v1/tags/${tag.id}`).send({ name: 'y' }),
      ];
      for (const res of await Promise.all(frozenCalls))
        expectError(res, 423, 'entity_frozen', { type: 'locked' });

      // reads keep working
      await live.get(`/v1/tags/${tag.id}`).expect(200);
      await live.get('/v1/tags').expect(200);
      await live.get(keysPath).expect(200);
      await api(second, keys.live).get(`/v1/tags/${tag.id}`).expect(200);

      // the bypass: migrations:write key + the valid token, on both instances
      const passed = await migration
        .post('/v1/tags')
        .set('X-Freeze-Token', token)
        .send({ name: 'during cutover' })
        .expect(201);
      await migration
        .patch(`/v1/tags/${passed.body.id}`)
        .set('X-Freeze-Token', token)
        .send({ name: 'renamed' })
        .expect(200);
      await api(second, keys.migration)
        .delete(`/v1/tags/${passed.body.id}`)
        .set('X-Freeze-Token', token)
        .expect(200);
      await migration.post(`${keysPath}/${spare2.id}/revoke`).set('X-Freeze-Token', token).expect(200);
      // refused with a wrong token, or with the token but no migrations:write
      expectError(
        await migration
          .post('/v1/tags')
          .set('X-Freeze-Token', '0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b')
          .send({ name: 'x' }),
        423,
        'entity_frozen',
      );
      expectError(
        await migration.post('/v1/tags').set('X-Freeze-Token', 'garbage').send({ name: 'x' }),
        423,
        'entity_frozen',
      );
      expectError(
        await tagsWriter.post('/v1/tags').set('X-Freeze-Token', token).send({ name: 'x' }),
        423,
        'entity_frozen',
      );
      // the freeze is per mode: test mode keeps working
      await api(app, keys.test).post('/v1/tags').send({ name: 'test mode' }).expect(201);
      expect(
        (await api(app, keys.test).get(`/v1/entities/${entityId}/migration/cutover`).expect(200)).body.frozen,
      ).toBe(false);
    } finally {
      await migration.post(`${base}/unfreeze`).send({ reason: 'done' }).expect(200);
    }
    // unfrozen on the other instance as soon as it hears of the unfreeze
    expect(
      await eventually(
        async () => (await other.patch(`/v1/tags/${tag.id}`).send({ name: 'before freeze' })).status === 200,
      ),
    ).toBe(true);
    await other.post('/v1/tags').send({ name: 'after' }).expect(201);
    await live.patch(`/v1/tags/${tag.id}`).send({ name: 'after' }).expect(200);
    const stored = await listAll(live, '/v1/tags');
    expect(stored.filter((t) => t.name === 'x' || t.name === 'y')).toEqual([]);
  });

  it('needs migrations:read / migrations:write and isolates entities', async () => {
    const readOnly = api(app, keys.read_only);
    await readOnly.get(base).expect(200);
    expectError(await readOnly.post(`${base}/freeze`).send({}), 403, 'insufficient_scope', {
      required: 'migrations:write',
    });
    expectError(await api(app, keys.orders_only).get(base), 403, 'insufficient_scope', {
      required: 'migrations:read',
    });
    const secondary = app.seed.entities.secondary.id;
    expectError(
      await migration.post(`/v1/entities/${secondary}/migration/cutover/freeze`).send({}),
      403,
      'entity_isolation_violation',
    );
    expectError(
      await migration.get(`/v1/entities/${secondary}/migration/cutover`),
      403,
      'entity_isolation_violation',
    );
    // an entity that does not exist is not the key's either
    expectError(
      await migration
        .post('/v1/entities/0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b/migration/cutover/freeze')
        .send({}),
      403,
      'entity_isolation_violation',
    );
    expectError(
      await migration.post('/v1/entities/not-an-id/migration/cutover/freeze').send({}),
      403,
      'entity_isolation_violation',
    );
    expectError(await migration.post(`${base}/freeze`).send({ reason: 42 }), 400, 'parameter_invalid', {
      param: 'reason',
    });
    expectError(await migration.post(`${base}/freeze`).send({ bogus: 1 }), 400, 'parameter_unknown', {
      param: 'bogus',
    });
    expect((await migration.get(base).expect(200)).body.frozen).toBe(false);
    // the secondary entity is unaffected by the primary's freeze
    await migration.post(`${base}/freeze`).send({}).expect(200);
    try {
      await api(app, app.seed.entities.secondary.keys.live)
        .post('/v1/tags')
        .send({ name: 'other entity' })
        .expect(201);
    } finally {
      await migration.post(`${base}/unfreeze`).send({}).expect(200);
    }
  });
});
