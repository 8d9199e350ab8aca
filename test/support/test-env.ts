import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What global setup hands to test files: the server and the migrated template database. */
export interface TestRunState {
  adminUrl: string;
  templateDb: string;
  embeddedDir?: string;
  embeddedPort?: number;
  redisUrl?: string;
}

export const STATE_FILE = path.resolve(__dirname, '../../.data/jest-run-state.json');

export function readRunState(): TestRunState {
  if (!existsSync(STATE_FILE)) throw new Error('Jest global setup did not run (no .data/jest-run-state.json)');
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as TestRunState;
}

/** Replaces the database name of a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
