import type { AddressInfo } from 'node:net';
import { api, expectError } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';

/** Errors that say what went wrong and what to send instead. */
describe('errors that say what to do', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let migration: ReturnType<typeof api>;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    migration = api(app, app.seed.entities.primary.keys.migration);
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const tagNames = async () => (await listAll(live, '/v1/tags')).map((t) => t.name as string);

  it('an unknown API key is shown by its prefix and last 4 characters, never whole', async () => {
    const secretPart = 'Q'.repeat(36) + 'wX9z';
    const key = `key_live_ent_qa1_${secretPart}`;
    const res = await api(app, key).get('/v1/tags');
    expectError(res, 401, 'invalid_api_key', { hint: 'No such API key: key_live_ent_qa1_...wX9z.' });
    expect(JSON.stringify(res.body)).not.toContain(secretPart);
  });

  it('malformed JSON names the line, column and position of the fault', async () => {
    const res = await live.post('/v1/tags').set('Content-Type', 'application/json').send('{"name": "x",}');
    expectError(res, 400, 'invalid_json', {
      hint: 'The request body is not valid JSON: unexpected "}" at line 1, column 14 (position 13).',
    });
    const multiline = '{\n  "name": "y"\n  "color": "red"\n}';
    const second = await live.post('/v1/tags').set('Content-Type', 'application/json').send(multiline);
    expectError(second, 400, 'invalid_json');
    expect(second.body.hint).toContain('at line 3, column 3 (position 18)');
  });

  it('a form-encoded, text/plain or undeclared body on a JSON route is 415 naming application/json; nothing is created', async () => {
    const form = await live.post('/v1/tags').type('form').send('name=form-tag');
    expectError(form, 415, 'unsupported_media_type');
    expect(form.body.hint).toBe(
      'This route takes a body of type application/json; it received Content-Type application/x-www-form-urlencoded. Send JSON with the header Content-Type: application/json.',
    );
    const json = JSON.stringify({ name: 'plain-tag' });
    const plain = await live.post('/v1/tags').set('Content-Type', 'text/plain').send(json);
    expectError(plain, 415, 'unsupported_media_type');
    expect(plain.body.hint).toContain('received Content-Type text/plain');
    // No Content-Type at all (fetch sends none for a byte body).
    const bare = await fetch(`${base}/v1/tags`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.seed.entities.primary.keys.live}` },
      body: new TextEncoder().encode(JSON.stringify({ name: 'bare-tag' })),
    });
    const bareBody = (await bare.json()) as { code: string; hint: string };
    expect([bare.status, bareBody.code]).toEqual([415, 'unsupported_media_type']);
    expect(bareBody.hint).toContain('it received no Content-Type');
    for (const name of ['form-tag', 'plain-tag', 'bare-tag']) expect(await tagNames()).not.toContain(name);
    // JSON with parameters or a +json type is JSON.
    await live.post('/v1/tags').set('Content-Type', 'application/json; charset=utf-8').send(json).expect(201);
    expect(await tagNames()).toContain('plain-tag');
  });

  it('the import route names all three of its types in the 415, and takes text/csv', async () => {
    const imports = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    const res = await migration
      .post(`${imports}?resource=tags`)
      .set('Content-Type', 'text/plain')
      .send('external_id,name\nTXT-1,From text\n');
    expectError(res, 415, 'unsupported_media_type');
    expect(res.body.hint).toContain('application/json, application/x-ndjson or text/csv');
    const csv = await migration
      .post(`${imports}?resource=tags`)
      .set('Content-Type', 'text/csv')
      .send('external_id,name\nCSV-1,From csv\n');
    expect(csv.status).toBeLessThan(300);
    expect(csv.body).toMatchObject({ object: 'import', resource: 'tags' });
  });

  it('an invalid email says what an email address looks like', async () => {
    const res = await live.post('/v1/accounts').send({ name: 'Mail Co', email: 'not-an-address' });
    expectError(res, 400, 'parameter_invalid', {
      param: 'email',
      hint: 'Invalid email: expected an email address, such as jane@example.com.',
    });
  });

  it('a doubled /v1 prefix is a 404 that says so; a missing one too', async () => {
    const doubled = await live.get('/v1/v1/tags');
    expectError(doubled, 404, 'not_found');
    expect(doubled.body.hint).toContain('The path repeats /v1');
    expect(doubled.body.hint).toContain('request /v1/tags');
    const posted = await live.post('/v1/v1/tags').send({ name: 'doubled' });
    expectError(posted, 404, 'not_found');
    expect(posted.body.hint).toContain('request /v1/tags');
    const bare = await live.get('/tags');
    expectError(bare, 404, 'not_found');
    expect(bare.body.hint).toContain('API paths start with /v1 (/v1/tags)');
    // An unknown path under /v1 keeps the plain answer.
    expectError(await live.get('/v1/nope'), 404, 'not_found', {
      hint: 'No route matches this method and path.',
    });
  });
});
