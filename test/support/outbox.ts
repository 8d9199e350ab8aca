import request from 'supertest';
import type { SeededEntity } from '#platform/seed/qa-seed.service';
import { TestApp } from './test-app';

/** An event as the events API shows it. */
export interface OutboxEvent {
  id: string;
  type: string;
  livemode: boolean;
  created_at: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  request: { id: string | null };
}

/**
 * Reads the outbox through the events API (`GET /entities/{id}/events`) as one of an entity's
 * keys (the primary entity's live key unless told): the events of that entity and mode, oldest
 * first, as a webhook endpoint would receive them.
 */
export function outbox(
  app: TestApp,
  { entity = app.seed.entities.primary, key }: { entity?: SeededEntity; key?: string } = {},
) {
  const bearer = `Bearer ${key ?? entity.keys.live}`;
  /**
   * The events newest first, page by page, optionally of one type; stops after the page that
   * holds an event not newer than `since` (event ids are time-ordered UUIDv7), keeping only the
   * newer ones.
   */
  const newestFirst = async (type?: string, since?: string): Promise<OutboxEvent[]> => {
    const events: OutboxEvent[] = [];
    for (;;) {
      const query = new URLSearchParams({ limit: '100' });
      if (type) query.set('type', type);
      const last = events.at(-1);
      if (last) query.set('starting_after', last.id);
      // Plain supertest: the events route's answers are checked against OpenAPI in its own suite.
      const res = await request(app.server)
        .get(`/v1/entities/${entity.id}/events?${query}`)
        .set('Authorization', bearer)
        .expect(200);
      const page = res.body as { data: OutboxEvent[]; has_more: boolean };
      const fresh = since === undefined ? page.data : page.data.filter((e) => e.id > since);
      events.push(...fresh);
      if (!page.has_more || fresh.length < page.data.length) return events;
    }
  };
  const all = async (type?: string): Promise<OutboxEvent[]> => (await newestFirst(type)).reverse();
  const eventsOf = async (objectId: string) => (await all()).filter((e) => e.data.object?.id === objectId);
  return {
    /** Every event, optionally of one type, oldest first. */
    all,
    /** The events newer than the event `since` (all when undefined), newest first. */
    since: (since: string | undefined, type?: string) => newestFirst(type, since),
    /** The events whose `data.object` is the object with this id. */
    eventsOf,
    /** The types of the events about one object, in order. */
    typesOf: async (objectId: string) => (await eventsOf(objectId)).map((e) => e.type),
  };
}
