import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { API_VERSION } from '#platform/events/event-publisher';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const CLIENT = path.join(__dirname, '../../clients/typescript');

/**
 * One API version everywhere: the description's info.version, the events (and so the
 * Service-API-Version header of their deliveries, test/webhooks/webhook-delivery.e2e-spec.ts),
 * the typed client's API_VERSION and its package version all come from API_VERSION.
 */
describe('one API version everywhere', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('is a date, and the description, the events and the typed client state it', async () => {
    expect(API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const doc = (await request(app.server).get('/v1/openapi.json').expect(200)).body;
    expect(doc.info.version).toBe(API_VERSION);
    const live = api(app, app.seed.entities.primary.keys.live);
    const account = (await live.post('/v1/accounts').send({ name: 'Versioned Co' }).expect(201)).body;
    const events = await live
      .get(`/v1/entities/${app.seed.entities.primary.id}/events?type=account.created&limit=100`)
      .expect(200);
    const created = (events.body.data as { api_version: string; data: { object: { id: string } } }[]).find(
      (e) => e.data.object.id === account.id,
    );
    expect(created?.api_version).toBe(API_VERSION);
    const [year, month, day] = API_VERSION.split('-').map(Number);
    const pkg = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe(`${year}.${month}.${day}`);
    const source = readFileSync(path.join(CLIENT, 'src/webhooks.ts'), 'utf8');
    expect(/export const API_VERSION = '([^']+)'/.exec(source)?.[1]).toBe(API_VERSION);
  });

  it('the error schema requires request_id, which every error carries', async () => {
    const doc = (await request(app.server).get('/v1/openapi.json').expect(200)).body;
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(
      expect.arrayContaining(['error', 'code', 'type', 'request_id']),
    );
    const res = await request(app.server).get('/v1/tags').expect(401);
    expect(res.body.request_id).toBe(res.headers['request-id']);
  });
});
