import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateFile, TestRunState } from './test-env';

/**
 * Global setup of the runs `scripts/tests-alone.mjs` makes, one per test: instead of migrating a
 * template database of its own, the run uses the one the script migrated once (TESTS_ALONE_STATE:
 * `{ adminUrl, templateDb, redisUrl }`). Every test still gets a fresh copy of it.
 */
export default function reusedTemplateSetup(): void {
  const shared = process.env.TESTS_ALONE_STATE;
  if (!shared)
    throw new Error('reused-template-setup runs under scripts/tests-alone.mjs (TESTS_ALONE_STATE unset)');
  const state = JSON.parse(shared) as TestRunState;
  mkdirSync(path.dirname(stateFile(process.pid)), { recursive: true });
  writeFileSync(stateFile(process.pid), JSON.stringify(state));
}
