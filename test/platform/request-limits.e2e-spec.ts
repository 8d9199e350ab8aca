import { importRows, orphanImportRows } from '../support/database';
import { api, expectError } from '../support/http';
import { rawJson, rawRequest } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Nothing large is read before the caller is known: the key, the scopes and the route's own
 * limit are checked first, a declared length over the limit is answered at once, and a body
 * that stalls does not hold its socket.
 */
describe('request bodies and server limits', () => {
  let app: TestApp;
  let live: string;
  let readOnly: string;
  let entityId: string;

  beforeAll(async () => {
    app = await startTestApp({ HTTP_BODY_IDLE_TIMEOUT_MS: 600, HTTP_HEADERS_TIMEOUT_MS: 4000 });
    live = app.seed.entities.primary.keys.live;
    readOnly = app.seed.entities.primary.keys.read_only;
    entityId = app.seed.entities.primary.id;
  });
  afterAll(() => app.close());

  const head = (method: string, path: string, headers: Record<string, string | number>) =>
    `${method} ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;

  it('answers a keyless NDJSON upload of 63 MB with 401 at once, without reading it, and closes', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', '/v1/tags', { 'Content-Type': 'application/x-ndjson', 'Content-Length': 66_060_288 }),
      '{"a":1}\n',
    );
    expect(res.status).toBe(401);
    expect(rawJson(res)).toMatchObject({ code: 'invalid_api_key' });
    // Answered although the declared body never arrives: had it waited for the body, the answer
    // would be the stall's 400 (HTTP_BODY_IDLE_TIMEOUT_MS), not this status.
    expect(res.closed).toBe(true);
  });

  it('answers a lying Content-Length (50 MB declared, 2 bytes sent) without a key at once and closes', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', '/v1/tags', { 'Content-Type': 'application/json', 'Content-Length': 50_000_000 }),
      '{}',
    );
    expect(res.status).toBe(401);
    expect(res.headers['request-id']).toMatch(/^req_/);
    expect(res.closed).toBe(true);
    // Answered although the declared body never arrives: had it waited for the body, the answer
    // would be the stall's 400 (HTTP_BODY_IDLE_TIMEOUT_MS), not this status.
  });

  it('answers a declared length above every route limit with 413 before authentication', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', '/v1/tags', { 'Content-Type': 'application/json', 'Content-Length': 100 * 1024 * 1024 }),
    );
    expect(res.status).toBe(413);
    expect(rawJson(res)).toMatchObject({ code: 'payload_too_large', request_id: res.headers['request-id'] });
    expect(res.closed).toBe(true);
  });

  it("answers a declared length over the route's 1 MiB limit with 413 at once once the key is known", async () => {
    const res = await rawRequest(
      app.server,
      head('POST', '/v1/tags', {
        Authorization: `Bearer ${live}`,
        'Content-Type': 'application/json',
        'Content-Length': 2 * 1024 * 1024,
      }),
      '{"name":',
    );
    expect(res.status).toBe(413);
    expect(rawJson(res)).toMatchObject({ code: 'payload_too_large' });
    // Answered although the declared body never arrives: had it waited for the body, the answer
    // would be the stall's 400 (HTTP_BODY_IDLE_TIMEOUT_MS), not this status.
    expect(res.closed).toBe(true);
  });

  it('keeps the 1 MiB limit for chunked JSON bodies', async () => {
    const res = await api(app, live)
      .post('/v1/tags')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }));
    expectError(res, 413, 'payload_too_large');
  });

  it('refuses NDJSON on a route that takes JSON with 415', async () => {
    const res = await api(app, live)
      .post('/v1/tags')
      .set('Content-Type', 'application/x-ndjson')
      .send('{"name":"a"}\n');
    expectError(res, 415, 'unsupported_media_type');
  });

  it('reads an NDJSON upload only for a key with migrations:write (403 at once otherwise)', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', `/v1/entities/${entityId}/migration/imports?resource=tags`, {
        Authorization: `Bearer ${readOnly}`,
        'Content-Type': 'application/x-ndjson',
        'Content-Length': 10_000_000,
      }),
      '{"external_id":"a","name":"a"}\n',
    );
    expect(res.status).toBe(403);
    expect(rawJson(res)).toMatchObject({ code: 'insufficient_scope' });
    // Answered although the declared body never arrives: had it waited for the body, the answer
    // would be the stall's 400 (HTTP_BODY_IDLE_TIMEOUT_MS), not this status.
  });

  it('answers an NDJSON upload declared over 64 MiB on the import route with 413 at once', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', `/v1/entities/${entityId}/migration/imports?resource=tags`, {
        Authorization: `Bearer ${live}`,
        'Content-Type': 'application/x-ndjson',
        'Content-Length': 64 * 1024 * 1024 + 1,
      }),
    );
    expect(res.status).toBe(413);
  });

  it('streams a 3 MiB NDJSON upload into an import with every row counted', async () => {
    const rows = 30_000;
    const line = (i: number) =>
      JSON.stringify({ external_id: `S-${i}`, name: `Streamed ${i}`, pad: 'p'.repeat(60) });
    const body = Array.from({ length: rows }, (_, i) => line(i)).join('\n') + '\n';
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const res = await api(app, live)
      .post(`/v1/entities/${entityId}/migration/imports?resource=tags`)
      .set('Content-Type', 'application/x-ndjson')
      .send(body)
      .expect(201);
    expect(res.body).toMatchObject({ object: 'import', total: rows, status: 'queued' });
    // The stored rows (no route returns them): every line, numbered, none left by other uploads.
    const stored = await importRows(app, res.body.id);
    expect(stored).toHaveLength(rows);
    expect(stored[rows - 1]).toEqual({ idx: rows - 1, line: rows, text: line(rows - 1) });
    expect(stored.map((r) => r.text).join('\n') + '\n').toBe(body);
    expect(await orphanImportRows(app)).toBe(0);
  });

  it('refuses a body that stalls with a key, and closes the connection', async () => {
    const res = await rawRequest(
      app.server,
      head('POST', '/v1/tags', {
        Authorization: `Bearer ${live}`,
        'Content-Type': 'application/json',
        'Content-Length': 100,
      }),
      '{"name":',
      5000,
    );
    expect(res.status).toBe(400);
    expect(rawJson(res)).toMatchObject({ code: 'parameter_invalid', param: 'body' });
    // Not before the idle timeout (600 ms); rawRequest's own 5 s limit bounds it from above.
    expect(res.answeredAfterMs).toBeGreaterThanOrEqual(500);
    expect(res.closed).toBe(true);
  });

  it('sets explicit timeouts and a connection cap on both listeners', () => {
    for (const server of [app.server, app.sandbox]) {
      expect(server.headersTimeout).toBe(4000);
      expect(server.requestTimeout).toBe(app.config.HTTP_REQUEST_TIMEOUT_MS);
      expect(server.keepAliveTimeout).toBe(app.config.HTTP_KEEP_ALIVE_TIMEOUT_MS);
      expect(server.maxConnections).toBe(app.config.HTTP_MAX_CONNECTIONS);
    }
  });

  it('answers headers over 16 KB with 431 in the envelope, with a Request-Id, and closes', async () => {
    const res = await rawRequest(
      app.server,
      head('GET', '/v1/tags', { Authorization: `Bearer ${live}`, 'X-Padding': 'a'.repeat(20_000) }),
    );
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['request-id']).toMatch(/^req_/);
    expect(rawJson(res)).toEqual({
      error: 'request_header_fields_too_large',
      code: 'request_header_fields_too_large',
      type: 'validation_error',
      hint: expect.any(String),
      request_id: res.headers['request-id'],
    });
    expect(res.closed).toBe(true);
  });

  it('answers bytes that are not HTTP with 400 malformed_request in the envelope', async () => {
    const res = await rawRequest(app.server, 'GARBAGE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers['request-id']).toMatch(/^req_/);
    expect(rawJson(res)).toMatchObject({ code: 'malformed_request', type: 'validation_error' });
    expect(res.closed).toBe(true);
  });

  it('still parses small JSON bodies after authentication', async () => {
    const res = await api(app, live).post('/v1/tags').send({ name: 'After auth' }).expect(201);
    expect(res.body).toMatchObject({ object: 'tag', name: 'After auth' });
  });
});
