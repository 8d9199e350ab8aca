import { anyScope, isKnownScope, missingScopes, READ_SCOPES, registerScopes, SCOPES } from './scopes';

describe('scopes', () => {
  it('knows the platform scopes, the registered ones and the wildcard', () => {
    expect(isKnownScope('api_keys:write')).toBe(true);
    expect(isKnownScope('activity:read')).toBe(true);
    expect(isKnownScope('*')).toBe(true);
    expect(isKnownScope('tags:read')).toBe(false);
    registerScopes(['tags:read', 'tags:write', 'tags:read']);
    expect(isKnownScope('tags:read')).toBe(true);
    expect(SCOPES.filter((s) => s === 'tags:read')).toHaveLength(1);
    expect([...SCOPES].sort()).toEqual(SCOPES);
    expect(READ_SCOPES).toEqual(SCOPES.filter((s) => s.endsWith(':read')));
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
