import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run guides:check` (CI): runs the README's Quickstart and every guide of docs/guides as
 * shell scripts against a started server, each twice in a row, and fails when any command
 * fails. A guide is its ```sh blocks, in order, run as one bash script; the second run shows
 * the commands can be repeated against the same data. Without `GUIDES_BASE_URL` the stack is
 * started the way the README says (`npm start`'s script, with private webhook targets allowed);
 * with it, the scripts run against that server. Arguments name the pages to run (default all).
 */

/** The ```sh blocks of a markdown text (of one `## <section>` only, when a section is named), in order. */
export function shellBlocks(markdown: string, section?: string): string[] {
  let text = markdown;
  if (section !== undefined) {
    const start = markdown.indexOf(`\n## ${section}`);
    if (start < 0) throw new Error(`no "## ${section}" section`);
    const rest = markdown.slice(start + 1);
    const end = rest.indexOf('\n## ', 3);
    text = end < 0 ? rest : rest.slice(0, end);
  }
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** The ```sh blocks of the README's `## Quickstart` section, in order. */
export const quickstartBlocks = (readme: string): string[] => shellBlocks(readme, 'Quickstart');

const ROOT = path.resolve(__dirname, '../..');
const PORT = process.env.PORT ?? '3000';
const GUIDES = 'docs/guides';

export interface Walkthrough {
  name: string;
  blocks: string[];
}

/** The README's Quickstart, then every guide with shell blocks, in file-name order. */
export function walkthroughs(root: string): Walkthrough[] {
  const guides = readdirSync(path.join(root, GUIDES))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => ({
      name: `${GUIDES}/${file}`,
      blocks: shellBlocks(readFileSync(path.join(root, GUIDES, file), 'utf8')),
    }));
  return [
    {
      name: 'README.md#quickstart',
      blocks: quickstartBlocks(readFileSync(path.join(root, 'README.md'), 'utf8')),
    },
    ...guides.filter((guide) => guide.blocks.length > 0),
  ];
}

async function waitForHealth(origin: string, deadline: number, stack?: ChildProcess): Promise<void> {
  for (;;) {
    if (stack && stack.exitCode !== null)
      throw new Error(`the stack exited with code ${stack.exitCode} before answering`);
    try {
      const res = await fetch(`${origin}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${origin} did not answer /health within 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function runTwice(walkthrough: Walkthrough, base: string): boolean {
  // A receiver a block started in the background stops with the script, even when a command failed.
  const cleanup = "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT";
  const script = ['set -euo pipefail', cleanup, 'set -x', ...walkthrough.blocks].join('\n');
  for (const round of [1, 2]) {
    console.error(`\n--- ${walkthrough.name}, run ${round} of 2`);
    const run = spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, BASE: base },
      stdio: 'inherit',
      timeout: 180_000,
    });
    if (run.status !== 0) {
      console.error(`${walkthrough.name} failed on run ${round} (exit ${run.status ?? run.signal})`);
      return false;
    }
  }
  return true;
}

async function main(names: string[]): Promise<number> {
  const selected = walkthroughs(ROOT).filter(
    (w) => names.length === 0 || names.some((name) => w.name.includes(name)),
  );
  if (selected.length === 0) throw new Error(`no page matches ${names.join(', ')}`);
  const given = process.env.GUIDES_BASE_URL;
  const base = given ?? `http://127.0.0.1:${PORT}/v1`;
  const stack = given
    ? undefined
    : spawn(process.execPath, [path.join(ROOT, 'dist/scripts/start-local.js')], {
        cwd: ROOT,
        env: { ...process.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', PORT },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
  try {
    await waitForHealth(base.replace(/\/v1\/?$/, ''), Date.now() + 300_000, stack);
    const failed = selected.filter((walkthrough) => !runTwice(walkthrough, base));
    for (const w of selected)
      console.log(`${failed.includes(w) ? 'FAIL' : 'ok  '} ${w.name} (${w.blocks.length} blocks, twice)`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    if (stack) {
      stack.kill('SIGTERM');
      await new Promise((resolve) => (stack.exitCode !== null ? resolve(null) : stack.once('exit', resolve)));
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
