import { api } from './http';
import type { TestApp } from './test-app';

/** Any resource as a list route returns it. */
export type Listed = { id: string } & Record<string, unknown>;

/**
 * Every object a list route answers for the client's key (entity and mode), following
 * `starting_after` through all pages, in the route's order (newest first for most lists).
 * `path` may carry filters (`/v1/journal-entries?status=posted`).
 */
export async function listAll<T extends { id: string } = Listed>(
  client: ReturnType<typeof api>,
  path: string,
): Promise<T[]> {
  const all: T[] = [];
  for (;;) {
    const [route, filters] = path.split('?');
    const query = new URLSearchParams(filters);
    query.set('limit', '100');
    const last = all.at(-1);
    if (last) query.set('starting_after', last.id);
    const page = (await client.get(`${route}?${query}`).expect(200)).body as { data: T[]; has_more: boolean };
    all.push(...page.data);
    if (!page.has_more) return all;
  }
}

/**
 * Every object a list route answers in each seeded entity and mode (through each one's live or
 * test key): what a test checks when a write must have landed nowhere.
 */
export async function listInEverySeededScope(app: TestApp, path: string): Promise<Listed[]> {
  const all: Listed[] = [];
  for (const entity of [app.seed.entities.primary, app.seed.entities.secondary]) {
    for (const key of [entity.keys.live, entity.keys.test]) {
      if (key) all.push(...(await listAll(api(app, key), path)));
    }
  }
  return all;
}
