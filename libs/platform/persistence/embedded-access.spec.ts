import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  assertServerCanReach,
  blockedDirectory,
  EmbeddedPostgresAccessError,
  explainStartFailure,
  ServerUser,
} from './embedded-access';

describe('embedded PostgreSQL access check', () => {
  let root: string;
  let checkout: string;
  const stranger: ServerUser = { name: 'postgres', uid: 4_000_001, gids: [4_000_001] };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'embedded-access-'));
    checkout = path.join(root, 'home', 'project');
    mkdirSync(path.join(checkout, '.data'), { recursive: true });
    chmodSync(root, 0o755);
    chmodSync(path.join(root, 'home'), 0o700);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the 0700 parent that another user cannot enter', () => {
    expect(blockedDirectory(path.join(checkout, '.data', 'pg'), stranger)).toEqual({
      target: path.join(checkout, '.data', 'pg'),
      directory: path.join(root, 'home'),
      mode: '0700',
    });
    // The owner of the directory, and a member of its group when the group may enter, get in.
    const { uid, gid } = statSync(path.join(root, 'home'));
    expect(blockedDirectory(checkout, { name: 'owner', uid, gids: [] })).toBeUndefined();
    expect(blockedDirectory(checkout, { name: 'group', uid: 4_000_002, gids: [gid] })).toEqual(
      expect.objectContaining({ directory: path.join(root, 'home') }),
    );
    chmodSync(path.join(root, 'home'), 0o750);
    expect(blockedDirectory(checkout, { name: 'group', uid: 4_000_002, gids: [gid] })).toBeUndefined();
    expect(blockedDirectory(checkout, stranger)).toEqual(expect.objectContaining({ mode: '0750' }));
    // o+x is enough for everyone.
    chmodSync(path.join(root, 'home'), 0o711);
    expect(blockedDirectory(path.join(checkout, '.data', 'pg'), stranger)).toBeUndefined();
    // A user not created yet is "other" everywhere.
    chmodSync(path.join(root, 'home'), 0o700);
    expect(blockedDirectory(checkout, { name: 'postgres', gids: [] })?.directory).toBe(
      path.join(root, 'home'),
    );
  });

  it('explains the problem and the three ways out, only when running as root', () => {
    const target = path.join(checkout, '.data', 'pg');
    expect(() => assertServerCanReach([target], stranger, false)).not.toThrow();
    let thrown: unknown;
    try {
      assertServerCanReach([target], stranger, true);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EmbeddedPostgresAccessError);
    const message = (thrown as Error).message;
    expect(message).toContain(`cannot enter ${path.join(root, 'home')} (mode 0700)`);
    expect(message).toMatch(/regular \(non-root\) user/);
    expect(message).toMatch(/chmod o\+x/);
    expect(message).toMatch(/DATABASE_URL/);
    expect((thrown as Error).stack).not.toMatch(/\n\s+at /);
    chmodSync(path.join(root, 'home'), 0o711);
    expect(() => assertServerCanReach([target], stranger, true)).not.toThrow();
  });

  it('rewords an EACCES from spawning initdb, and leaves other failures alone', () => {
    const eacces = Object.assign(new Error('spawn /x/native/bin/initdb EACCES'), { code: 'EACCES' });
    expect(explainStartFailure(eacces, '/x/.data/pg', true)).toBeInstanceOf(EmbeddedPostgresAccessError);
    expect(explainStartFailure(eacces, '/x/.data/pg', false)).toBe(eacces);
    const other = new Error('port in use');
    expect(explainStartFailure(other, '/x/.data/pg', true)).toBe(other);
  });
});
