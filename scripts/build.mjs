#!/usr/bin/env node
// `npm run build`: compiles tsconfig.build.json into dist with `tsc -b`, which returns in about a
// second when no source changed since the last build (it compares the sources with
// dist/.tsbuildinfo instead of type-checking the program again). Before compiling, it keeps dist
// truthful where the build-info file cannot:
// - a compiled file whose source was deleted or renamed is removed (with its source map), so that
//   nothing loads code that no longer exists;
// - when a compiled file is missing although the build info says it is current (dist partly
//   deleted by hand), the build info is dropped and the next compile emits everything.
// Run from the project root (the directory holding tsconfig.build.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = process.cwd();
const project = 'tsconfig.build.json';
const { compilerOptions = {}, include = [] } = JSON.parse(readFileSync(path.join(root, project), 'utf8'));
const outDir = path.join(root, compilerOptions.outDir ?? 'dist');
const buildInfo = path.join(root, compilerOptions.tsBuildInfoFile ?? path.join('dist', '.tsbuildinfo'));

const isSource = (name) =>
  name.endsWith('.ts') &&
  !name.endsWith('.d.ts') &&
  !name.endsWith('.spec.ts') &&
  !name.endsWith('.e2e-spec.ts');

/** Every file under `dir` (relative to `base`), skipping node_modules. */
function walk(dir, base, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, base, out);
    else out.push(path.relative(base, full));
  }
  return out;
}

let removed = 0;
let missing = 0;
for (const dir of include) {
  // Compiled files without a source any more.
  for (const file of walk(path.join(outDir, dir), outDir)) {
    const match = /^(.*)\.js(\.map)?$/.exec(file);
    if (!match) continue;
    if (!existsSync(path.join(root, `${match[1]}.ts`))) {
      rmSync(path.join(outDir, file));
      if (!match[2]) removed++;
    }
  }
  // Sources without a compiled file.
  for (const file of walk(path.join(root, dir), root)) {
    if (isSource(file) && !existsSync(path.join(outDir, file.replace(/\.ts$/, '.js')))) missing++;
  }
}
if (removed) console.error(`build: removed ${removed} compiled file(s) whose source no longer exists`);
if (missing && existsSync(buildInfo)) {
  console.error(
    `build: ${missing} compiled file(s) missing from ${path.relative(root, outDir)}, compiling everything`,
  );
  rmSync(buildInfo);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-b', project], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
