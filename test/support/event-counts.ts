import request from 'supertest';
import { outbox, type OutboxEvent } from './outbox';
import type { TestApp } from './test-app';

/**
 * The events of the primary entity's live mode newer than the event `since` (all of them when
 * undefined), newest first, through the events API, so a test that counts the events of its own
 * work does not page through everything before it.
 */
export function eventsSince(app: TestApp, since: string | undefined, type?: string): Promise<OutboxEvent[]> {
  return outbox(app).since(since, type);
}

/** The id of the newest event of the primary entity's live mode, if any: a mark for eventsSince. */
export async function lastEventId(app: TestApp): Promise<string | undefined> {
  const entity = app.seed.entities.primary;
  const page = (
    await request(app.server)
      .get(`/v1/entities/${entity.id}/events?limit=1`)
      .set('Authorization', `Bearer ${entity.keys.live}`)
      .expect(200)
  ).body as { data: OutboxEvent[] };
  return page.data[0]?.id;
}

/** How many events of each type whose name starts with one of `prefixes` came after `since`, by type. */
export async function eventCountsSince(
  app: TestApp,
  since: string | undefined,
  ...prefixes: string[]
): Promise<{ type: string; n: number }[]> {
  const counts = new Map<string, number>();
  for (const e of await eventsSince(app, since)) {
    if (prefixes.some((p) => e.type.startsWith(p))) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, n]) => ({ type, n }));
}
