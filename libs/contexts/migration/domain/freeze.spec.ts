import { assertUnfreezable, freezeStatusOf, freezeTransition, judgeFrozenMutation } from './freeze';
import { MigrationError } from './migration-error';

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

describe('the freeze life cycle', () => {
  it('allows freeze from either status (a repeat stays frozen) and unfreeze from frozen only', () => {
    expect(freezeTransition('freeze', 'unfrozen')).toBe('frozen');
    expect(freezeTransition('freeze', 'frozen')).toBe('frozen');
    expect(freezeTransition('unfreeze', 'frozen')).toBe('unfrozen');
  });

  it('refuses to unfreeze an unfrozen entity with 409 invalid_state, as the route answers', () => {
    let caught: unknown;
    try {
      freezeTransition('unfreeze', 'unfrozen');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MigrationError);
    expect(caught).toMatchObject({
      code: 'invalid_state',
      hint: 'The entity is not frozen (status: unfrozen); there is nothing to unfreeze.',
    });
  });

  it('reads the status from the freeze row, an entity never frozen having none', () => {
    expect(freezeStatusOf(true)).toBe('frozen');
    expect(freezeStatusOf(false)).toBe('unfrozen');
    expect(() => assertUnfreezable({ frozen: true })).not.toThrow();
    expect(() => assertUnfreezable({ frozen: false })).toThrow(MigrationError);
    expect(() => assertUnfreezable(null)).toThrow(MigrationError);
  });
});
