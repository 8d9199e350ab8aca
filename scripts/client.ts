import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The typed TypeScript client in clients/typescript/src, generated from the API's OpenAPI
 * description with @hey-api/openapi-ts (one function per operation, types for every body).
 *
 *   node dist/scripts/client.js generate   regenerates clients/typescript/src
 *   node dist/scripts/client.js check      fails when the committed client differs from a fresh
 *                                          generation, or types a response or a schema field as
 *                                          `unknown` / `never`
 *
 * Run from the repository root after `npm run build` (the description comes from the build).
 */
const ROOT = process.cwd();
const OUT = path.join(ROOT, 'clients/typescript/src');

function generate(into: string): void {
  const work = mkdtempSync(path.join(os.tmpdir(), 'erp-client-'));
  try {
    const spec = path.join(work, 'openapi.json');
    execFileSync(process.execPath, [path.join(ROOT, 'dist/scripts/openapi-export.js'), spec], {
      stdio: 'inherit',
    });
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'),
        '--input',
        spec,
        '--output',
        into,
        '--plugins',
        '@hey-api/client-fetch',
        '@hey-api/typescript',
        '@hey-api/sdk',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function files(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const rel = path.join(prefix, name);
    return statSync(path.join(dir, name)).isDirectory() ? files(path.join(dir, name), rel) : [rel];
  });
}

/**
 * Places where the generated types fall back to `unknown` or `never` for something the API
 * returns: a response type (`...Responses` blocks), or a named field of a schema. Index
 * signatures of free-form maps (`metadata`, event `data`) and `body?: never` / `query?: never`
 * of requests that take none are what the description says, not a gap.
 */
export function untypedPlaces(types: string): string[] {
  const found: string[] = [];
  let block = '';
  for (const [i, line] of types.split('\n').entries()) {
    const open = /^export type (\w+) = \{/.exec(line);
    if (open) block = open[1];
    const isRequest = /Data$/.test(block);
    const field = /^\s+'?([A-Za-z_][\w-]*)'?\??: (unknown|never)( \| null)?;/.exec(line);
    if (field && !isRequest) found.push(`${block}.${field[1]} (line ${i + 1}): ${field[2]}`);
    if (/Responses$/.test(block) && /^\s+\d{3}: (unknown|never);/.test(line))
      found.push(`${block} (line ${i + 1})`);
  }
  return found;
}

function check(): void {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'erp-client-check-'));
  try {
    generate(fresh);
    const committed = new Set(files(OUT));
    const generated = new Set(files(fresh));
    const stale = [...new Set([...committed, ...generated])].filter(
      (f) =>
        !committed.has(f) ||
        !generated.has(f) ||
        readFileSync(path.join(OUT, f), 'utf8') !== readFileSync(path.join(fresh, f), 'utf8'),
    );
    const untyped = untypedPlaces(readFileSync(path.join(fresh, 'types.gen.ts'), 'utf8'));
    if (stale.length)
      console.error(`clients/typescript is stale (npm run client:generate): ${stale.join(', ')}`);
    if (untyped.length) console.error(`untyped places in the client:\n  ${untyped.join('\n  ')}`);
    if (stale.length || untyped.length) process.exit(1);
    console.log(`clients/typescript is up to date (${generated.size} files), every response typed`);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const mode = process.argv[2];
  if (mode === 'generate') {
    rmSync(OUT, { recursive: true, force: true });
    generate(OUT);
    console.log(`clients/typescript/src regenerated (${files(OUT).length} files)`);
  } else if (mode === 'check') check();
  else {
    console.error('usage: client.js generate|check');
    process.exit(2);
  }
}
