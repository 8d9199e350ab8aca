import { EntityProfileCache } from '#platform/tenancy/entity-profile.cache';
import { api } from '../support/http';
import { setEntityTimezone } from '../support/out-of-band-writes';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * An entity's profile (code, currency, time zone) is read once and kept across requests; a
 * change of the entity row made behind the app's back reaches it by the database's
 * notification, and the next request answers with the new time zone.
 */
describe('entity profiles kept across requests', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('keeps the profile a request read, and forgets it when the entity row changes', async () => {
    const live = api(app, app.seed.entities.primary.keys.live);
    const entityId = app.seed.entities.primary.id;
    const cache = app.get(EntityProfileCache);
    const before = (await live.get('/v1/accounting/settings').expect(200)).body.timezone as string;
    expect(cache.get(entityId)).toMatchObject({ id: entityId, timezone: before });

    const zone = before === 'Pacific/Kiritimati' ? 'UTC' : 'Pacific/Kiritimati';
    try {
      // setEntityTimezone waits until the cache no longer holds the old profile.
      await setEntityTimezone(app, entityId, zone);
      expect(cache.get(entityId)?.timezone ?? zone).toBe(zone);
      expect((await live.get('/v1/accounting/settings').expect(200)).body.timezone).toBe(zone);
      expect(cache.get(entityId)).toMatchObject({ timezone: zone });
    } finally {
      await setEntityTimezone(app, entityId, before);
    }
  });
});
