import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The repository is the whole public contract: no file and no text of the served OpenAPI
 * description sends a reader to a contract document that is not in the repository, and every
 * relative link of the docs leads to a file that exists.
 */
const ROOT = path.resolve(__dirname, '../..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.git', 'coverage']);
const THIS_FILE = path.relative(ROOT, __filename);
// Generated from the served description, which is checked below; test fixtures may quote anything.
const SKIPPED = [/^clients\/typescript\/src\//, /(^|\/)(__)?fixtures(__)?\//];
const TEXT = /\.(ts|mts|js|mjs|cjs|json|md|ya?ml|sh|sql|txt|example)$|(^|\/)(run|Dockerfile|\.[a-z]+rc)$/;
/** Names of contract documents that live outside the repository. */
const OUTSIDE_DOCUMENTS = /\bSPEC\.md\b|API-CONTRACT|\bARCHITECTURE\.md\b|beside this repository/;

function repositoryFiles(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : repositoryFiles(full);
    return [path.relative(ROOT, full)];
  });
}

const files = repositoryFiles().filter(
  (file) => TEXT.test(file) && file !== THIS_FILE && !SKIPPED.some((pattern) => pattern.test(file)),
);

describe('the contract lives in the repository', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('reads the files it checks', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/reference/conventions.md']));
    expect(files.filter((file) => file.startsWith('libs/')).length).toBeGreaterThan(100);
  });

  it('no file names a contract document outside the repository', () => {
    const mentions = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE_DOCUMENTS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(mentions).toEqual([]);
  });

  it('the served OpenAPI description names none either', async () => {
    const res = await request(app.server).get('/v1/openapi.json').expect(200);
    const text = JSON.stringify(res.body);
    expect(text.length).toBeGreaterThan(100_000);
    expect(text.match(new RegExp(OUTSIDE_DOCUMENTS.source, 'g')) ?? []).toEqual([]);
  });

  it('every relative link of the docs and the README leads to a file', () => {
    const pages = files.filter((file) => file.endsWith('.md') && !file.startsWith('clients/'));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/operations.md']));
    const broken = pages.flatMap((page) =>
      [...readFileSync(path.join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1].split('#')[0])
        .filter((target) => target !== '' && !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.resolve(ROOT, path.dirname(page), target)))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
