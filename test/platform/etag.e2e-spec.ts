import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

describe('conditional requests (ETag, If-None-Match, If-Match)', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const WEAK = /^W\/"[^"]+"$/;

  it('gives a single resource a weak ETag and answers If-None-Match with 304', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'etag one' }).expect(201)).body;
    const got = await live.get(`/v1/tags/${tag.id}`).expect(200);
    const etag = got.headers.etag as string;
    expect(etag).toMatch(WEAK);
    expect((await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag).toBe(etag);

    const cached = await live.get(`/v1/tags/${tag.id}`).set('If-None-Match', etag);
    expect(cached.status).toBe(304);
    expect(cached.text ?? '').toBe('');
    expect(cached.headers.etag).toBe(etag);
    expect(cached.headers['request-id']).toMatch(/^req_/);
    const listed = await live.get(`/v1/tags/${tag.id}`).set('If-None-Match', `W/"other", ${etag}`);
    expect(listed.status).toBe(304);
    const stale = await live.get(`/v1/tags/${tag.id}`).set('If-None-Match', 'W/"stale"').expect(200);
    expect(stale.body.id).toBe(tag.id);
  });

  it('answers HEAD like GET: the same ETag and 304, expand[] checked, no body', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'etag head' }).expect(201)).body;
    const key = app.seed.entities.primary.keys.live;
    const etag = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag as string;
    const head = await request(app.server).head(`/v1/tags/${tag.id}`).set('Authorization', `Bearer ${key}`);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.text ?? '').toBe('');
    const cached = await request(app.server)
      .head(`/v1/tags/${tag.id}`)
      .set('Authorization', `Bearer ${key}`)
      .set('If-None-Match', etag);
    expect(cached.status).toBe(304);
    const badExpand = await request(app.server)
      .head(`/v1/tags/${tag.id}?expand[]=nowhere`)
      .set('Authorization', `Bearer ${key}`);
    expect(badExpand.status).toBe(400);
    expectError(await live.get(`/v1/tags/${tag.id}?expand[]=nowhere`), 400, 'invalid_expand');
  });

  it('changes the ETag on every update', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'etag change' }).expect(201)).body;
    const before = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag as string;
    await live.patch(`/v1/tags/${tag.id}`).send({ name: 'etag changed' }).expect(200);
    const after = await live.get(`/v1/tags/${tag.id}`).expect(200);
    expect(after.headers.etag).toMatch(WEAK);
    expect(after.headers.etag).not.toBe(before);
    const refreshed = await live.get(`/v1/tags/${tag.id}`).set('If-None-Match', before).expect(200);
    expect(refreshed.body.name).toBe('etag changed');
    await live.patch(`/v1/tags/${tag.id}`).send({ color: '#abcdef' }).expect(200);
    const third = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag;
    expect(new Set([before, after.headers.etag, third]).size).toBe(3);
  });

  it('gives lists an ETag of the page', async () => {
    await live.post('/v1/tags').send({ name: 'etag list' }).expect(201);
    const list = await live.get('/v1/tags').expect(200);
    const etag = list.headers.etag as string;
    expect(etag).toMatch(WEAK);
    expect((await live.get('/v1/tags').set('If-None-Match', etag)).status).toBe(304);
    await live.post('/v1/tags').send({ name: 'etag list 2' }).expect(201);
    const changed = await live.get('/v1/tags').set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((await live.get('/v1/tags?limit=1').expect(200)).headers.etag).not.toBe(changed.headers.etag);
  });

  it('refuses PATCH and DELETE with a stale If-Match and accepts the current one', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'if match' }).expect(201)).body;
    const first = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag as string;
    const patched = await live
      .patch(`/v1/tags/${tag.id}`)
      .set('If-Match', first)
      .send({ name: 'if match 2' })
      .expect(200);
    expect(patched.body.name).toBe('if match 2');

    expectError(
      await live.patch(`/v1/tags/${tag.id}`).set('If-Match', first).send({ name: 'lost update' }),
      412,
      'precondition_failed',
      {
        type: 'precondition_failed',
      },
    );
    expect((await live.get(`/v1/tags/${tag.id}`).expect(200)).body.name).toBe('if match 2');
    expectError(await live.delete(`/v1/tags/${tag.id}`).set('If-Match', first), 412, 'precondition_failed');
    await live.get(`/v1/tags/${tag.id}`).expect(200);

    const current = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag as string;
    expect(current).not.toBe(first);
    await live.patch(`/v1/tags/${tag.id}`).set('If-Match', current).send({ color: '#010203' }).expect(200);
    const latest = (await live.get(`/v1/tags/${tag.id}`).expect(200)).headers.etag as string;
    expectError(await live.delete(`/v1/tags/${tag.id}`).set('If-Match', current), 412, 'precondition_failed');
    const deleted = await live.delete(`/v1/tags/${tag.id}`).set('If-Match', latest).expect(200);
    expect(deleted.body).toEqual({ id: tag.id, object: 'tag', deleted: true });
    await live.get(`/v1/tags/${tag.id}`).expect(404);
  });

  it('answers 404 for a record that does not exist, whatever If-Match says', async () => {
    const missing = randomUUID();
    for (const ifMatch of ['W/"stale"', '*']) {
      expectError(
        await live.patch(`/v1/tags/${missing}`).set('If-Match', ifMatch).send({ name: 'nobody' }),
        404,
        'not_found',
      );
      expectError(
        await live
          .patch(`/v1/orders/${missing}/lines/${randomUUID()}`)
          .set('If-Match', ifMatch)
          .send({ description: 'nobody' }),
        404,
        'not_found',
      );
      expectError(await live.delete(`/v1/tags/${missing}`).set('If-Match', ifMatch), 404, 'not_found');
    }
  });

  it("compares an order line's If-Match with the order's ETag", async () => {
    const fixtures = app.seed.fixtures as { account_id: string };
    const order = (
      await live
        .post('/v1/orders')
        .send({
          account_id: fixtures.account_id,
          lines: [{ description: 'If-Match line', quantity: 1, unit_price: 10 }],
        })
        .expect(201)
    ).body;
    const line = order.lines[0].id as string;
    const read = await live.get(`/v1/orders/${order.id}`).expect(200);
    const etag = read.headers.etag as string;
    expectError(
      await live
        .patch(`/v1/orders/${order.id}/lines/${line}`)
        .set('If-Match', 'W/"stale"')
        .send({ quantity: 3 }),
      412,
      'precondition_failed',
    );
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.lines[0].quantity).toBe(1);
    const patched = await live
      .patch(`/v1/orders/${order.id}/lines/${line}`)
      .set('If-Match', etag)
      .send({ quantity: 3 })
      .expect(200);
    expect(patched.body.lines[0].quantity).toBe(3);
    // The order changed with its line: the ETag read before is stale for the order's own PATCH.
    expectError(
      await live.patch(`/v1/orders/${order.id}`).set('If-Match', etag).send({ notes: 'late' }),
      412,
      'precondition_failed',
    );
  });
});
