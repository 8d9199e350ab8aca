import { anyScope, isKnownScope, missingScopes, READ_SCOPES, SCOPES } from './scopes';

describe('scopes', () => {
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

  it('reports the scopes a key lacks; * lacks none', () => {
    expect(missingScopes(new Set(['orders:write']), ['orders:write', 'payments:write'])).toEqual([
      'payments:write',
    ]);
    expect(missingScopes(new Set(['*']), ['orders:write', 'payments:write'])).toEqual([]);
    expect(missingScopes(new Set(), ['tags:read'])).toEqual(['tags:read']);
  });

  it('meets an alternatives requirement with either scope', () => {
    const either = anyScope('inventory:write', 'purchasing:write');
    expect(either).toBe('inventory:write|purchasing:write');
    expect(missingScopes(new Set(['purchasing:write']), [either])).toEqual([]);
    expect(missingScopes(new Set(['inventory:write']), [either])).toEqual([]);
    expect(missingScopes(new Set(['orders:write']), [either, 'orders:write'])).toEqual([either]);
  });
});
