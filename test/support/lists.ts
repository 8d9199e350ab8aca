import { api } from './http';

type Client = ReturnType<typeof api>;

/**
 * Every record of a list route, following `starting_after` until `has_more` is false, in the
 * route's own order. `path` may carry filters (`/v1/inventory/transactions?product_id=...`).
 */
export async function allPages<T extends { id: string }>(client: Client, path: string): Promise<T[]> {
  const records: T[] = [];
  for (;;) {
    const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    query.set('limit', '100');
    const last = records.at(-1);
    if (last) query.set('starting_after', last.id);
    const base = path.includes('?') ? path.slice(0, path.indexOf('?')) : path;
    const page = (await client.get(`${base}?${query}`).expect(200)).body as { data: T[]; has_more: boolean };
    records.push(...page.data);
    if (!page.has_more) return records;
  }
}
