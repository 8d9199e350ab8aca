import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

type Tag = { id: string; name: string };
type Page = { object: string; data: Tag[]; has_more: boolean; url: string; total_count?: number };

describe('cursor pagination (GET /v1/tags)', () => {
  let app: TestApp;
  let client: ReturnType<typeof api>;
  /** The 30 tags made for these tests, oldest first. */
  const created: Tag[] = [];
  const newestFirst = () => [...created].reverse().map((t) => t.id);

  beforeAll(async () => {
    app = await startTestApp();
    // Test mode: the seed's live fixtures do not appear, so the list holds only our tags.
    client = api(app, app.seed.entities.primary.keys.test);
    const before = await client.get('/v1/tags?limit=100').expect(200);
    expect(before.body.data).toEqual([]);
    for (let i = 0; i < 30; i++)
      created.push(
        (
          await client
            .post('/v1/tags')
            .send({ name: `page tag ${i}` })
            .expect(201)
        ).body,
      );
  });
  afterAll(() => app.close());

  const ids = (res: { body: Page }) => res.body.data.map((t) => t.id);

  it('returns 20 by default, newest first, with the list envelope', async () => {
    const res = await client.get('/v1/tags').expect(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/tags' });
    expect(res.body).not.toHaveProperty('total_count');
    expect(ids(res)).toEqual(newestFirst().slice(0, 20));
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('bounds limit to 1..100', async () => {
    for (const bad of ['0', '101', 'abc', '-1', '1.5']) {
      expectError(await client.get(`/v1/tags?limit=${bad}`), 400, 'parameter_invalid', {
        param: 'limit',
        type: 'validation_error',
      });
    }
    const one = await client.get('/v1/tags?limit=1').expect(200);
    expect(ids(one)).toEqual([created[29].id]);
    expect(one.body.has_more).toBe(true);
    const hundred = await client.get('/v1/tags?limit=100').expect(200);
    expect(ids(hundred)).toEqual(newestFirst());
    expect(hundred.body.has_more).toBe(false);
  });

  it('pages forwards with starting_after and backwards with ending_before', async () => {
    const all = newestFirst();
    const first = await client.get('/v1/tags?limit=10').expect(200);
    expect(ids(first)).toEqual(all.slice(0, 10));
    const second = await client.get(`/v1/tags?limit=10&starting_after=${all[9]}`).expect(200);
    expect(ids(second)).toEqual(all.slice(10, 20));
    expect(second.body.has_more).toBe(true);
    const last = await client.get(`/v1/tags?limit=10&starting_after=${all[19]}`).expect(200);
    expect(ids(last)).toEqual(all.slice(20, 30));
    expect(last.body.has_more).toBe(false);

    // Backwards: the page just before the cursor, still newest first.
    const back = await client.get(`/v1/tags?limit=10&ending_before=${all[20]}`).expect(200);
    expect(ids(back)).toEqual(all.slice(10, 20));
    expect(back.body.has_more).toBe(true);
    const backStart = await client.get(`/v1/tags?limit=10&ending_before=${all[5]}`).expect(200);
    expect(ids(backStart)).toEqual(all.slice(0, 5));
    expect(backStart.body.has_more).toBe(false);
    const beforeNewest = await client.get(`/v1/tags?ending_before=${all[0]}`).expect(200);
    expect(ids(beforeNewest)).toEqual([]);
    expect(beforeNewest.body.has_more).toBe(false);
  });

  it('refuses both cursors together and a cursor that is not a uuid', async () => {
    const all = newestFirst();
    const both = await client.get(`/v1/tags?starting_after=${all[3]}&ending_before=${all[1]}`);
    expectError(both, 400, 'parameter_invalid', { type: 'validation_error' });
    expect(['starting_after', 'ending_before']).toContain(both.body.param);
    expectError(await client.get('/v1/tags?starting_after=nope'), 400, 'parameter_invalid', {
      param: 'starting_after',
    });
    expectError(await client.get('/v1/tags?ending_before=123'), 400, 'parameter_invalid', {
      param: 'ending_before',
    });
  });

  it('adds total_count only with include_count=true', async () => {
    const counted = await client.get('/v1/tags?limit=5&include_count=true').expect(200);
    expect(counted.body.total_count).toBe(30);
    expect(counted.body.data).toHaveLength(5);
    const cursorCounted = await client
      .get(`/v1/tags?limit=5&include_count=true&starting_after=${newestFirst()[10]}`)
      .expect(200);
    expect(cursorCounted.body.total_count).toBe(30);
    const off = await client.get('/v1/tags?include_count=false').expect(200);
    expect(off.body).not.toHaveProperty('total_count');
    expectError(await client.get('/v1/tags?include_count=maybe'), 400, 'parameter_invalid', {
      param: 'include_count',
    });
  });

  it('reports url as the path without the query, also under the entity alias', async () => {
    const res = await client.get('/v1/tags?limit=2&include_count=true').expect(200);
    expect(res.body.url).toBe('/v1/tags');
    const entity = app.seed.entities.primary.id;
    const alias = await client.get(`/v1/entities/${entity}/tags?limit=2`).expect(200);
    expect(alias.body.url).toBe(`/v1/entities/${entity}/tags`);
  });

  it('never skips or repeats a record that existed throughout, while the cursor is deleted and tags are added', async () => {
    // A separate entity-mode so the earlier tags do not matter: the live key of the secondary entity.
    const other = api(app, app.seed.entities.secondary.keys.live);
    const original: string[] = [];
    for (let i = 0; i < 50; i++)
      original.push(
        (
          await other
            .post('/v1/tags')
            .send({ name: `stable ${i}` })
            .expect(201)
        ).body.id,
      );
    const seen: string[] = [];
    const deleted = new Set<string>();
    const added = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const res = await other.get(`/v1/tags?limit=7${cursor ? `&starting_after=${cursor}` : ''}`).expect(200);
      const page = ids(res);
      expect(page.length).toBeLessThanOrEqual(7);
      seen.push(...page);
      if (!res.body.has_more) break;
      cursor = page[page.length - 1];
      // The cursor's record disappears, and newer records appear, between pages.
      await other.delete(`/v1/tags/${cursor}`).expect(200);
      deleted.add(cursor);
      for (let k = 0; k < 2; k++)
        added.add(
          (
            await other
              .post('/v1/tags')
              .send({ name: `inserted ${pages}.${k}` })
              .expect(201)
          ).body.id,
        );
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Newest first: tags added after paging began are newer than every cursor, so never on a later page.
    expect(seen.filter((id) => added.has(id))).toEqual([]);
    expect(seen).toEqual([...original].reverse());
    expect(deleted.size).toBe(7);

    // The same backwards from the oldest record.
    const back: string[] = [];
    const oldest = await other.get('/v1/tags?limit=100').expect(200);
    const survivors = ids(oldest);
    let before: string | undefined = survivors[survivors.length - 1];
    back.unshift(before);
    for (let pages = 0; pages < 20; pages++) {
      const res = await other.get(`/v1/tags?limit=7&ending_before=${before}`).expect(200);
      const page = ids(res);
      back.unshift(...page);
      if (!res.body.has_more) break;
      before = page[0];
      await other.delete(`/v1/tags/${before}`).expect(200);
    }
    expect(new Set(back).size).toBe(back.length);
    expect(back).toEqual(survivors);
  });
});
