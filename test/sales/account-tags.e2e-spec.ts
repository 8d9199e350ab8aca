import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('account tags', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('attaches and detaches tags, shows tag_ids everywhere and emits account.updated', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Tagged Co' }).expect(201)).body;
    expect(account.tag_ids).toEqual([]);
    const tagId = app.seed.fixtures.tag_id as string;
    const second = (await live.post('/v1/tags').send({ name: 'VIP' }).expect(201)).body.id;
    await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: tagId }).expect(200);
    const both = (await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: second }).expect(200))
      .body;
    expect(both.tag_ids).toEqual([tagId, second]);
    await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: second }).expect(200);
    expect((await live.get(`/v1/accounts/${account.id}`).expect(200)).body.tag_ids).toEqual([tagId, second]);
    const listed = (await live.get('/v1/accounts?limit=100').expect(200)).body.data.find(
      (a: { id: string }) => a.id === account.id,
    );
    expect(listed.tag_ids).toEqual([tagId, second]);
    const order = (await live.post('/v1/orders').send({ account_id: account.id }).expect(201)).body;
    expect(
      (await live.get(`/v1/orders/${order.id}?expand[]=account`).expect(200)).body.account.tag_ids,
    ).toEqual([tagId, second]);
    const after = (await live.delete(`/v1/accounts/${account.id}/tags/${tagId}`).expect(200)).body;
    expect(after.tag_ids).toEqual([second]);
    expectError(await live.delete(`/v1/accounts/${account.id}/tags/${tagId}`), 404, 'not_found');
    expectError(
      await live
        .post(`/v1/accounts/${account.id}/tags`)
        .send({ tag_id: '0190a000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'tag_id' },
    );
    expectError(
      await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: 'x' }),
      400,
      'parameter_invalid',
      { param: 'tag_id' },
    );
    expectError(
      await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: tagId, extra: 1 }),
      400,
      'parameter_unknown',
      { param: 'extra' },
    );
    const events = await outbox(app).eventsOf(account.id);
    expect(events.map((e) => e.type)).toEqual([
      'account.created',
      'account.updated',
      'account.updated',
      'account.updated',
    ]);
    expect(events[3].data.previous_attributes).toEqual({ tag_ids: [tagId, second] });
  });

  it('refuses deleted accounts and other entities or modes', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Gone Co' }).expect(201)).body;
    const tagId = app.seed.fixtures.tag_id as string;
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(
        await api(app, key).post(`/v1/accounts/${account.id}/tags`).send({ tag_id: tagId }),
        404,
        'not_found',
      );
      expectError(await api(app, key).delete(`/v1/accounts/${account.id}/tags/${tagId}`), 404, 'not_found');
    }
    await live.delete(`/v1/accounts/${account.id}`).expect(200);
    expectError(
      await live.post(`/v1/accounts/${account.id}/tags`).send({ tag_id: tagId }),
      409,
      'invalid_state',
      { hint: expect.stringContaining("'deleted'") },
    );
  });
});
