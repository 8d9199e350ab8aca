import { isKnownScope, READ_SCOPES, SCOPES } from '#platform/auth/scopes';
import { EVENT_CATALOG, EVENT_FAMILIES } from '#platform/events/event-catalog';
import '#contexts/vocabulary';

describe('event catalog', () => {
  it('has 118 unique types in 14 families', () => {
    expect(EVENT_CATALOG).toHaveLength(118);
    expect(new Set(EVENT_CATALOG.map((e) => e.type)).size).toBe(118);
    expect(EVENT_FAMILIES).toHaveLength(14);
    expect(new Set(EVENT_CATALOG.map((e) => e.family)).size).toBe(14);
  });

  it("starts every type with its family's name (<family>.<verb> or <family>.<sub-resource>.<verb>)", () => {
    const strays = EVENT_CATALOG.filter((e) => e.type.split('.')[0] !== e.family).map((e) => e.type);
    expect(strays).toEqual([]);
    for (const e of EVENT_CATALOG) expect(e.type).toMatch(/^[a-z_]+(\.[a-z_]+){1,2}$/);
  });

  it('has the 12 account types and 21 product types of the published catalog', () => {
    expect(EVENT_CATALOG.filter((e) => e.family === 'account')).toHaveLength(12);
    expect(EVENT_CATALOG.filter((e) => e.family === 'product')).toHaveLength(21);
    const types = EVENT_CATALOG.map((e) => e.type);
    for (const named of [
      'account.address.added',
      'account.terms.updated',
      'product.created',
      'product.updated',
      'product.deleted',
      'product.restored',
      'product.variant.created',
      'order.confirmed',
      'payment.succeeded',
      'fulfillment.shipped',
      'webhook.test',
      'inventory.low_stock',
      'inventory.out_of_stock',
      'inventory.back_in_stock',
      'webhook.endpoint.disabled',
      'webhook.delivery.exhausted',
    ]) {
      expect(types).toContain(named);
    }
  });
});

describe('scopes of the contexts', () => {
  it('knows the contract scopes and the wildcard', () => {
    for (const scope of [
      'orders:write',
      'api_keys:read',
      'events:read',
      'webhooks:manage',
      'activity:read',
      'assets:read',
      '*',
    ]) {
      expect(isKnownScope(scope)).toBe(true);
    }
    expect(isKnownScope('orders:delete')).toBe(false);
    expect(READ_SCOPES.every((s) => s.endsWith(':read'))).toBe(true);
    expect(SCOPES).toContain('migrations:write');
  });

  it('has the 21 resources with read and write, and the four single scopes, sorted', () => {
    expect(SCOPES).toHaveLength(46);
    expect(new Set(SCOPES).size).toBe(46);
    expect([...SCOPES].sort()).toEqual(SCOPES);
    expect(READ_SCOPES).toEqual(SCOPES.filter((s) => s.endsWith(':read')));
  });
});
