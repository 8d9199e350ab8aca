import http from 'node:http';
import { Pool } from 'pg';
import { listEnvelope, listLimit, listSql, RETRIEVE_SQL, TagRow, toResource } from './tag-rows';

/**
 * Benchmark baseline: a bare Node `http` server with `pg` that answers the same two tag
 * routes as the API with the same JSON, running only the tag query (no key lookup, no
 * rate limit, no framework). Entity and mode come from the environment; prints `{"port":n}`.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

const notFound = (res: http.ServerResponse) =>
  send(res, 404, {
    error: 'not_found',
    code: 'not_found',
    type: 'not_found',
    hint: 'No such resource.',
  });

async function main() {
  const url = process.env.DATABASE_URL;
  const entityId = process.env.ENTITY_ID;
  if (!url || !entityId) throw new Error('DATABASE_URL and ENTITY_ID are required');
  const livemode = process.env.LIVEMODE !== 'false';
  // The same pool size as the API's data source (libs/platform/persistence/database.ts).
  const pool = new Pool({ connectionString: url, max: Number(process.env.POOL_MAX ?? 20) });

  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' || !String(req.headers.authorization ?? '').startsWith('Bearer ')) {
        return send(res, 401, {
          error: 'invalid_api_key',
          code: 'invalid_api_key',
          type: 'authentication_error',
          hint: 'No API key.',
        });
      }
      const [path, search = ''] = (req.url ?? '').split('?');
      if (path === '/v1/tags') {
        const limit = listLimit(new URLSearchParams(search).get('limit'));
        const { rows } = await pool.query<TagRow>(listSql(limit), [entityId, livemode]);
        return send(res, 200, listEnvelope(rows, limit));
      }
      const match = /^\/v1\/tags\/([^/]+)$/.exec(path);
      if (!match) return notFound(res);
      if (!UUID.test(match[1])) return notFound(res);
      const { rows } = await pool.query<TagRow>(RETRIEVE_SQL, [match[1], entityId, livemode]);
      return rows[0] ? send(res, 200, toResource(rows[0])) : notFound(res);
    })().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent)
        send(res, 500, {
          error: 'internal_error',
          code: 'internal_error',
          type: 'internal',
          hint: 'Internal error.',
        });
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);

  const stop = () => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
