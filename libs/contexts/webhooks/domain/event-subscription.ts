import { EVENT_CATALOG, EVENT_FAMILIES } from '#platform/events/event-catalog';
import { WebhooksError } from './webhooks-error';

/**
 * Every value a subscription list may hold: `*`, `<family>.*` for each event family, and each
 * catalog event type (the catalog is assembled at start). The check below and the description's
 * `enum` of `enabled_events` read it.
 */
export const subscriptionValues = (): string[] => [
  '*',
  ...EVENT_FAMILIES.map((family) => `${family}.*`),
  ...EVENT_CATALOG.map((definition) => definition.type),
];

/** True when `pattern` is `*`, a catalog event type, or `<family>.*` for one of the 14 families. */
export function isValidSubscription(pattern: string): boolean {
  return subscriptionValues().includes(pattern);
}

/**
 * Validates a subscription list and returns it without duplicates, in the order given.
 * An unknown name or pattern is a 400 naming the element, e.g. `enabled_events[2]`.
 */
export function normalizeSubscriptions(patterns: readonly string[], param: string): string[] {
  if (patterns.length === 0) {
    throw new WebhooksError('parameter_invalid', {
      param,
      hint: `${param} needs at least one event name or pattern.`,
    });
  }
  patterns.forEach((pattern, index) => {
    if (!isValidSubscription(pattern)) {
      throw new WebhooksError('parameter_invalid', {
        param: `${param}[${index}]`,
        hint: `'${pattern}' is not an event type, a family wildcard '<family>.*' (families: ${EVENT_FAMILIES.join(', ')}) or '*'. GET /entities/{entity_id}/event_types lists the types.`,
      });
    }
  });
  return [...new Set(patterns)];
}

/** Whether an endpoint subscribed to `patterns` receives events of `type`; `<family>.*` is a prefix match. */
export function subscriptionMatches(patterns: readonly string[], type: string): boolean {
  if (patterns.includes('*') || patterns.includes(type)) return true;
  const dot = type.indexOf('.');
  return dot > 0 && patterns.includes(`${type.slice(0, dot)}.*`);
}

/** The event types a subscription list covers (for documentation and tests). */
export const coveredTypes = (patterns: readonly string[]): string[] =>
  EVENT_CATALOG.filter((d) => subscriptionMatches(patterns, d.type)).map((d) => d.type);
