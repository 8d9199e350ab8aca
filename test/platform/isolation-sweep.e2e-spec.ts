import { RouteInfo, RouteRegistry } from '#platform/http/route-registry';
import { tenantTablesFingerprint } from '../support/database';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Tenant and mode isolation, generated from the route registry: every route with an id in its
 * path is called with the ids of the primary entity's live records, using the other entity's
 * key and the primary entity's test-mode key, and every route under /entities/:entity_id with
 * the other entity's key. Reads must answer 404 (403 for another entity's path), writes must
 * refuse, and no row of the primary entity changes. A new route is covered without a new test.
 */

/** Tables a refused request may legitimately touch (request bookkeeping, not data). */
const BOOKKEEPING = new Set([
  'activity_log',
  'idempotency_keys',
  'rate_limit_windows',
  'import_upload_chunks',
]);

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

describe('cross-tenant and cross-mode sweep', () => {
  let app: TestApp;
  let routes: RouteInfo[];
  let entityA: string;
  let entityB: string;

  beforeAll(async () => {
    app = await startTestApp();
    routes = app.get(RouteRegistry).routes();
    entityA = app.seed.entities.primary.id;
    entityB = app.seed.entities.secondary.id;
  });
  afterAll(() => app.close());

  /** Per tenant table: row count and sum of versions of the primary entity (both modes). */
  function fingerprint(): Promise<Record<string, string>> {
    return tenantTablesFingerprint(app, entityA, BOOKKEEPING);
  }

  /** Fills a path's parameters with the primary entity's live ids, listing each prefix; undefined when one has no record. */
  async function realPath(
    route: RouteInfo,
    cache: Map<string, string | undefined>,
  ): Promise<string | undefined> {
    const live = api(app, app.seed.entities.primary.keys.live);
    const segments = route.path.split('/');
    const filled: string[] = [];
    for (const segment of segments) {
      if (!segment.startsWith(':')) {
        filled.push(segment);
        continue;
      }
      if (segment === ':entity_id') {
        filled.push(entityA);
        continue;
      }
      const listPath = filled.join('/');
      const candidates = [listPath, `/v1/${segment.slice(1).replace(/_id$/, '')}s`];
      let id = cache.get(listPath);
      if (!cache.has(listPath)) {
        for (const candidate of candidates) {
          const res = await live.get(`${candidate}${candidate.includes('?') ? '&' : '?'}limit=1`);
          id = res.status === 200 ? (res.body?.data?.[0]?.id as string | undefined) : undefined;
          if (id) break;
        }
        cache.set(listPath, id);
      }
      if (!id) return undefined;
      filled.push(id);
    }
    return filled.join('/');
  }

  it('refuses every route with another entity’s or mode’s key and changes nothing', async () => {
    const before = await fingerprint();
    const ids = new Map<string, string | undefined>();
    const foreign = api(app, app.seed.entities.secondary.keys.live);
    const otherMode = api(app, app.seed.entities.primary.keys.test);
    const failures: string[] = [];
    let covered = 0;
    let withIds = 0;
    const call = (client: ReturnType<typeof api>, method: string, path: string) => {
      const m = method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put';
      const req = client[m](path);
      return WRITES.has(method) && method !== 'DELETE' ? req.send({}) : req;
    };
    const expectRefused = (
      label: string,
      method: string,
      res: { status: number; body: Record<string, unknown> },
      allowed: number[],
    ) => {
      const validation = WRITES.has(method) && res.status === 400 && res.body?.type === 'validation_error';
      if (!allowed.includes(res.status) && !validation)
        failures.push(`${label} → ${res.status} ${String(res.body?.code)}`);
    };

    for (const route of routes.filter((r) => !r.public && r.path.startsWith('/v1/'))) {
      const hasIds = route.path.split('/').some((s) => s.startsWith(':') && s !== ':entity_id');
      const hasEntity = route.path.includes(':entity_id');
      if (!hasIds && !hasEntity) continue;
      if (hasIds) withIds++;
      const path = await realPath(route, ids);
      if (!path) continue;
      covered++;
      const label = `${route.method} ${route.path}`;
      if (hasEntity) {
        // Another entity's key on this entity's path: 403 entity_isolation_violation, whatever the id.
        expectRefused(
          `${label} (other entity's key)`,
          route.method,
          await call(foreign, route.method, path),
          [403],
        );
      }
      if (hasIds) {
        // The other entity's key on its own path (or the alias-free path) with this entity's ids: 404.
        const ownPath = path.replace(`/entities/${entityA}/`, `/entities/${entityB}/`);
        expectRefused(
          `${label} (other entity, own path)`,
          route.method,
          await call(foreign, route.method, ownPath),
          [404],
        );
        // The same entity's test-mode key with live ids: 404.
        expectRefused(
          `${label} (other mode)`,
          route.method,
          await call(otherMode, route.method, path),
          [404],
        );
      }
    }

    expect(failures).toEqual([]);
    // Most routes with ids are reached with real ids (the rest have no record in the QA seed).
    expect(covered).toBeGreaterThan(40);
    expect(covered / Math.max(1, withIds)).toBeGreaterThan(0.5);
    expect(await fingerprint()).toEqual(before);
  });
});
