import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { QaSeedDocument } from '#platform/seed/qa-seed.service';

/** What global setup hands to test files: the server and the migrated (and seeded) template database. */
export interface TestRunState {
  adminUrl: string;
  templateDb: string;
  embeddedDir?: string;
  embeddedPort?: number;
  redisUrl?: string;
  /** The QA seed document of the template database, when global setup seeded it. */
  seed?: QaSeedDocument;
  /** The queue prefix of every test app, when the template holds its migrated queue schema. */
  queuePrefix?: string;
  /** Where the run's test apps share the OpenAPI description they serve (test/support/openapi-cache.ts). */
  openApiDir?: string;
}

/** One file per jest run (keyed by the jest parent's pid), so two runs in one checkout do not collide. */
export const stateFile = (jestPid: number) => path.resolve(__dirname, `../../.data/jest-run-${jestPid}.json`);

/** Global setup runs in jest's parent process; tests run in its workers (ppid) or, in band, in it (pid). */
export function readRunState(): TestRunState {
  for (const pid of [process.ppid, process.pid]) {
    if (existsSync(stateFile(pid))) return JSON.parse(readFileSync(stateFile(pid), 'utf8')) as TestRunState;
  }
  throw new Error('Jest global setup did not run (no .data/jest-run-<pid>.json)');
}

/** Replaces the database name of a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
