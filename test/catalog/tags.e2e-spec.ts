import { randomUUID } from 'node:crypto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { TagAssignmentRepository } from '#contexts/catalog';
import { asEntity } from '../support/as-entity';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('tags', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates, retrieves, updates, lists and deletes a tag, emitting events', async () => {
    const created = await live.post('/v1/tags').send({ name: '  Wholesale ', color: '#1F6FEB' }).expect(201);
    expect(created.body).toMatchObject({
      object: 'tag',
      name: 'Wholesale',
      color: '#1f6feb',
      livemode: true,
    });
    expect(created.headers['content-type']).toMatch(/application\/json/);
    const id = created.body.id as string;

    const got = await live.get(`/v1/tags/${id}`).expect(200);
    expect(got.body).toEqual(created.body);

    const updated = await live.patch(`/v1/tags/${id}`).send({ name: 'Retail' }).expect(200);
    expect(updated.body.name).toBe('Retail');

    const list = await live.get('/v1/tags').expect(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, url: '/v1/tags' });
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(id);

    // An assignment to an account, written by the tag-assignment repository as the primary entity's live work.
    const tagged = randomUUID();
    const assignments = () =>
      asEntity(app, () => app.get(TagAssignmentRepository).tagIdsOf('account', [tagged]));
    await asEntity(app, () =>
      app.get(TransactionHost).run(() => app.get(TagAssignmentRepository).insert('account', tagged, id)),
    );
    expect((await assignments()).get(tagged)).toEqual([id]);
    const deleted = await live.delete(`/v1/tags/${id}`).expect(200);
    expect(deleted.body).toEqual({ id, object: 'tag', deleted: true });
    expect((await assignments()).get(tagged)).toEqual([]);
    expectError(await live.get(`/v1/tags/${id}`), 404, 'not_found', { type: 'not_found' });
    expectError(await live.delete(`/v1/tags/${id}`), 404, 'not_found');

    expect(await outbox(app).typesOf(id)).toEqual([
      'setting.tag.created',
      'setting.tag.updated',
      'setting.tag.deleted',
    ]);
  });

  it('validates bodies with parameter paths and never answers 500', async () => {
    expectError(await live.post('/v1/tags').send({}), 400, 'parameter_missing', {
      param: 'name',
      type: 'validation_error',
    });
    expectError(await live.post('/v1/tags').send({ name: 42 }), 400, 'parameter_invalid', { param: 'name' });
    expectError(await live.post('/v1/tags').send({ name: 'x', colour: 'red' }), 400, 'parameter_unknown', {
      param: 'colour',
    });
    expectError(await live.post('/v1/tags').send({ name: 'x', color: 'red' }), 400, 'parameter_invalid', {
      param: 'color',
    });
    expectError(await live.post('/v1/tags').send([{ name: 'x' }]), 400, 'parameter_invalid');
    expectError(
      await live.post('/v1/tags').set('Content-Type', 'application/json').send('{"name": "x",'),
      400,
      'invalid_json',
    );
    expectError(
      await live.post('/v1/tags').send({ name: 'x'.repeat(2 * 1024 * 1024) }),
      413,
      'payload_too_large',
    );
    expectError(await live.get('/v1/tags/not-a-uuid'), 404, 'not_found');
    expectError(await live.patch('/v1/tags/not-a-uuid').send({ name: 'y' }), 404, 'not_found');
    expectError(await live.get('/v1/tags?limit=abc'), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await live.get('/v1/tags?bogus=1'), 400, 'parameter_unknown', { param: 'bogus' });
  });

  it('keeps live and test data apart and isolates entities', async () => {
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    const liveTag = (await live.post('/v1/tags').send({ name: 'live only' }).expect(201)).body;
    const testTag = (await test.post('/v1/tags').send({ name: 'test only' }).expect(201)).body;
    expect(testTag.livemode).toBe(false);
    expectError(await test.get(`/v1/tags/${liveTag.id}`), 404, 'not_found');
    expectError(await live.get(`/v1/tags/${testTag.id}`), 404, 'not_found');
    expectError(await other.get(`/v1/tags/${liveTag.id}`), 404, 'not_found');
    expectError(await other.patch(`/v1/tags/${liveTag.id}`).send({ name: 'x' }), 404, 'not_found');
    const testList = await test.get('/v1/tags?limit=100').expect(200);
    expect(testList.body.data.every((t: { livemode: boolean }) => t.livemode === false)).toBe(true);
  });

  it('serves the entity-prefixed alias and refuses a foreign entity id', async () => {
    const primary = app.seed.entities.primary.id;
    const secondary = app.seed.entities.secondary.id;
    const created = await live.post(`/v1/entities/${primary}/tags`).send({ name: 'via alias' }).expect(201);
    await live.get(`/v1/entities/${primary}/tags/${created.body.id}`).expect(200);
    const list = await live.get(`/v1/entities/${primary}/tags?limit=1`).expect(200);
    expect(list.body.url).toBe(`/v1/entities/${primary}/tags`);
    expectError(
      await live.get(`/v1/entities/${secondary}/tags/${created.body.id}`),
      403,
      'entity_isolation_violation',
      {
        type: 'permission_error',
      },
    );
    expectError(
      await live.post(`/v1/entities/${secondary}/tags`).send({ name: 'x' }),
      403,
      'entity_isolation_violation',
    );
  });

  it('needs tags:read / tags:write', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    await readOnly.get('/v1/tags').expect(200);
    expectError(await readOnly.post('/v1/tags').send({ name: 'x' }), 403, 'insufficient_scope', {
      required: 'tags:write',
    });
    expectError(await ordersOnly.get('/v1/tags'), 403, 'insufficient_scope', { required: 'tags:read' });
  });
});
