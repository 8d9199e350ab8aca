import { eventCoverage } from '#platform/events/event-coverage';
import type { SeededEntity } from '#platform/seed/qa-seed.service';
import { outbox, type OutboxEvent } from './outbox';
import type { TestApp } from './test-app';

export interface ExpectEventOptions {
  /** The entity whose events are read (default the primary). */
  entity?: SeededEntity;
  /** The key reading them (default the entity's live key; a test key reads test-mode events). */
  key?: string;
  /** Only events newer than this event id (lastEventId()) are candidates. */
  since?: string;
  /** What `data.previous_attributes` must hold. */
  previous?: Record<string, unknown>;
}

/** Whether `actual` holds `expected` as toMatchObject reads it (objects in part, the rest equal). */
function matches(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toMatchObject(expected as Record<string, unknown>);
    return true;
  } catch {
    return false;
  }
}

/**
 * Asserts that the API committed an event of `type` whose `data.object` holds `fields`, read
 * through the events API as a webhook endpoint would see it, and answers the newest such event.
 * Pass the fields the test knows independently of the code under test (ids it created,
 * amounts it computed). The event must come from a product route or job this process ran and
 * committed (not a harness publish, the seed, a service a test called, a test-only route): the
 * assertion then counts toward the event catalog check of a whole e2e run (docs/testing.md,
 * "Event coverage").
 */
export async function expectEvent(
  app: TestApp,
  type: string,
  fields: Record<string, unknown>,
  options: ExpectEventOptions = {},
): Promise<OutboxEvent> {
  const events = outbox(app, { entity: options.entity, key: options.key });
  const candidates = await events.since(options.since, type);
  const found = candidates.find(
    (e) =>
      e.type === type &&
      matches(e.data.object, fields) &&
      (options.previous === undefined || matches(e.data.previous_attributes ?? {}, options.previous)),
  );
  if (!found) {
    const seen = candidates.slice(0, 3).map((e) => JSON.stringify(e.data));
    throw new Error(
      `expectEvent: no ${type} event holds ${JSON.stringify(fields)}` +
        (options.previous ? ` with previous_attributes ${JSON.stringify(options.previous)}` : '') +
        ` among ${candidates.length} event(s) of that type` +
        (seen.length > 0 ? `; the newest:\n${seen.join('\n')}` : ''),
    );
  }
  if (eventCoverage.on) {
    const origin = eventCoverage.originOf(found.id);
    if (origin === undefined)
      throw new Error(
        `expectEvent: the ${type} event ${found.id} was not committed by a product route or job of this ` +
          'process (a harness publish, the QA seed, a service called by the test, or a test-only route); ' +
          'cause it over HTTP or through its job',
      );
    eventCoverage.asserted(type, origin);
  }
  return found;
}
