import type { api } from './http';

/** Any resource as a list route returns it. */
export type Listed = { id: string } & Record<string, unknown>;

/**
 * Every object a list route answers for the client's key (entity and mode), following
 * `starting_after` through all pages, in the route's order (newest first for most lists).
 * `path` may carry filters (`/v1/journal-entries?status=posted`).
 */
export async function listAll<T extends Listed = Listed>(
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
