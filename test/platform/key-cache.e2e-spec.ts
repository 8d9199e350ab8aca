import { QaSeedService } from '#platform/seed/qa-seed.service';
import { eventually } from '../support/eventually';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Keys are cached per instance; revocation and rotation still reach every instance at once. */
describe('API key cache across instances', () => {
  let first: TestApp;
  let second: TestApp;
  let keysPath: string;

  beforeAll(async () => {
    first = await startTestApp();
    second = await startTestApp({}, { sameDatabaseAs: first });
    keysPath = `/v1/entities/${first.seed.entities.primary.id}/api_keys`;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const issue = async (name: string) =>
    (
      await api(first, first.seed.entities.primary.keys.live)
        .post(keysPath)
        .send({ name, scopes: ['tags:read'] })
        .expect(201)
    ).body as { id: string; secret: string };

  it('refuses a revoked key on the instance that had it cached', async () => {
    const key = await issue('cached then revoked');
    await api(second, key.secret).get('/v1/tags').expect(200);
    await api(second, key.secret).get('/v1/tags').expect(200);
    await api(first, first.seed.entities.primary.keys.live).post(`${keysPath}/${key.id}/revoke`).expect(200);
    expectError(await api(first, key.secret).get('/v1/tags'), 401, 'api_key_revoked');
    expect(await eventually(async () => (await api(second, key.secret).get('/v1/tags')).status === 401)).toBe(
      true,
    );
    expectError(await api(second, key.secret).get('/v1/tags'), 401, 'api_key_revoked');
  });

  it('refuses a rotated key on both instances and accepts its replacement', async () => {
    const key = await issue('cached then rotated');
    await api(second, key.secret).get('/v1/tags').expect(200);
    const rotated = await api(first, first.seed.entities.primary.keys.live)
      .post(`${keysPath}/${key.id}/rotate`)
      .expect(200);
    expect(await eventually(async () => (await api(second, key.secret).get('/v1/tags')).status === 401)).toBe(
      true,
    );
    await api(second, rotated.body.secret).get('/v1/tags').expect(200);
  });

  it('forgets every key when the QA seed recreates the entities', async () => {
    const oldLive = first.seed.entities.primary.keys.live;
    await api(second, oldLive).get('/v1/tags').expect(200);
    await first.get(QaSeedService).run();
    expect(await eventually(async () => (await api(second, oldLive).get('/v1/tags')).status === 401)).toBe(
      true,
    );
  });
});
