import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Import circles under libs/ (docs/architecture.md): every import and re-export of a .ts file,
 * `import type` included, resolved relative or through the package.json "imports" aliases
 * (#platform/*, #contexts/vocabulary, #contexts/*). Prints each circle and exits 1 when there is one.
 * Usage: node eslint/import-cycles.mjs [checkout root, default this one]
 */
const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const libs = path.join(root, 'libs');

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from, specifier) {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('#platform/')) base = path.join(libs, 'platform', specifier.slice(10));
  else if (specifier === '#contexts/vocabulary') base = path.join(libs, 'contexts', 'vocabulary');
  else if (specifier.startsWith('#contexts/'))
    base = path.join(libs, 'contexts', specifier.slice(10), 'index');
  else return null;
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')])
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) return candidate;
  return null;
}

const files = filesUnder(libs);
const edges = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => resolve(file, i.fileName)).filter((t) => t !== null);
    return [file, [...new Set(targets)]];
  }),
);

// Tarjan's strongly connected components: a component of more than one file is a circle.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function visit(file) {
  indexOf.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const target of edges.get(file) ?? []) {
    if (!indexOf.has(target)) {
      visit(target);
      low.set(file, Math.min(low.get(file), low.get(target)));
    } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), indexOf.get(target)));
  }
  if (low.get(file) !== indexOf.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(path.relative(root, member));
  } while (member !== file);
  const selfImport = (edges.get(file) ?? []).includes(file);
  if (component.length > 1 || selfImport) circles.push(component.sort());
}
for (const file of files) if (!indexOf.has(file)) visit(file);

if (circles.length > 0) {
  console.error(`Import circles under libs/ (${circles.length}):`);
  for (const circle of circles) console.error(`- ${circle.join(' <-> ')}`);
  process.exit(1);
}
process.stdout.write(`No import circle among ${files.length} files under libs/.\n`);
