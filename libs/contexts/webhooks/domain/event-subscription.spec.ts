import '#contexts/vocabulary';
import {
  coveredTypes,
  isValidSubscription,
  normalizeSubscriptions,
  subscriptionMatches,
} from './event-subscription';

describe('event subscriptions', () => {
  // Names of the catalog, family wildcards of families with events, and *.
  it.each<[string, boolean]>([
    ['order.confirmed', true],
    ['product.*', true],
    ['*', true],
    ['pricing_policy.*', false],
    ['journal_entry.*', false],
    ['accounting.*', true],
    ['order.exploded', false],
    ['order', false],
    ['', false],
  ])('accepts %p: %s', (subscription, valid) => {
    expect(isValidSubscription(subscription)).toBe(valid);
  });

  it('names the first bad element and removes duplicates', () => {
    expect(normalizeSubscriptions(['*', 'order.*', '*'], 'enabled_events')).toEqual(['*', 'order.*']);
    expect(() => normalizeSubscriptions(['order.*', 'x.y', 'z'], 'events')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'events[1]' }),
    );
    expect(() => normalizeSubscriptions([], 'enabled_events')).toThrow(
      expect.objectContaining({ param: 'enabled_events' }),
    );
  });

  it('matches a family wildcard to exactly the types that start with the family, so product.* includes pricing policies', () => {
    expect(subscriptionMatches(['product.*'], 'product.pricing_policy.updated')).toBe(true);
    expect(subscriptionMatches(['product.*'], 'order.confirmed')).toBe(false);
    expect(subscriptionMatches(['order.confirmed'], 'order.confirmed')).toBe(true);
    expect(subscriptionMatches(['order.confirmed'], 'order.cancelled')).toBe(false);
    expect(subscriptionMatches(['*'], 'webhook.endpoint.disabled')).toBe(true);
    expect(coveredTypes(['*'])).toHaveLength(118);
    expect(coveredTypes(['account.*'])).toHaveLength(12);
    const accounting = coveredTypes(['accounting.*']);
    expect(accounting).toContain('accounting.journal_entry.posted');
    expect(accounting.every((t) => t.startsWith('accounting.'))).toBe(true);
  });
});
