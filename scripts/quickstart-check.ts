import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run quickstart:check` (CI): runs the README's Quickstart shell blocks, in order, as one
 * bash script against a stack started the way the README says (`npm start`'s script, with
 * private webhook targets allowed), and fails when any command fails. The docs cannot drift.
 */

/** The ```sh blocks of the README's `## Quickstart` section, in order. */
export function quickstartBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## Quickstart');
  if (start < 0) throw new Error('README.md has no "## Quickstart" section');
  const rest = readme.slice(start + 1);
  const end = rest.indexOf('\n## ', 3);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

const ROOT = path.resolve(__dirname, '../..');
const PORT = process.env.PORT ?? '3000';

async function waitForHealth(deadline: number, stack: ChildProcess): Promise<void> {
  for (;;) {
    if (stack.exitCode !== null)
      throw new Error(`the stack exited with code ${stack.exitCode} before answering`);
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the stack did not answer /health within 180 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main(): Promise<number> {
  const blocks = quickstartBlocks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const stack = spawn(process.execPath, [path.join(ROOT, 'dist/scripts/start-local.js')], {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', PORT },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(Date.now() + 180_000, stack);
    const script = ['set -euo pipefail', 'set -x', ...blocks].join('\n');
    const run = spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, BASE: `http://127.0.0.1:${PORT}/v1` },
      stdio: 'inherit',
      timeout: 180_000,
    });
    if (run.status !== 0) console.error(`quickstart failed (exit ${run.status ?? run.signal})`);
    else console.log(`quickstart: ${blocks.length} blocks ran against a started server`);
    return run.status ?? 1;
  } finally {
    stack.kill('SIGTERM');
    await new Promise((resolve) => (stack.exitCode !== null ? resolve(null) : stack.once('exit', resolve)));
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
