import { judgeFrozenMutation } from './freeze';

const token = '0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

describe('frozen entity mutations', () => {
  it('let a migrations:write caller with the current token pass', () => {
    expect(
      judgeFrozenMutation({ scopes: new Set(['migrations:write']), headerToken: token, freezeToken: token }),
    ).toBe('allowed');
    expect(
      judgeFrozenMutation({ scopes: new Set(['*']), headerToken: token.toUpperCase(), freezeToken: token }),
    ).toBe('allowed');
  });

  it('refuse a caller without migrations:write even with the token', () => {
    expect(
      judgeFrozenMutation({
        scopes: new Set(['tags:write', 'migrations:read']),
        headerToken: token,
        freezeToken: token,
      }),
    ).toBe('not_migration_caller');
  });

  it('refuse a missing or wrong token', () => {
    const scopes = new Set(['migrations:write']);
    expect(judgeFrozenMutation({ scopes, headerToken: undefined, freezeToken: token })).toBe('missing_token');
    expect(judgeFrozenMutation({ scopes, headerToken: '', freezeToken: token })).toBe('missing_token');
    expect(
      judgeFrozenMutation({
        scopes,
        headerToken: '0196a0b2-7c3d-7e4f-8a9b-000000000000',
        freezeToken: token,
      }),
    ).toBe('wrong_token');
  });
});
