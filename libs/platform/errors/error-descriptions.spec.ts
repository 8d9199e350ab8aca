import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOG } from './error-catalog';
import { ERROR_DESCRIPTIONS, renderErrorsDoc } from './error-descriptions';

describe('docs/errors.md', () => {
  it('describes every code of the catalog and nothing else', () => {
    expect(Object.keys(ERROR_DESCRIPTIONS).sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const { meaning, remedy } of Object.values(ERROR_DESCRIPTIONS)) {
      expect(meaning.length).toBeGreaterThan(10);
      expect(remedy.length).toBeGreaterThan(5);
    }
  });

  it('is current (regenerate with npm run docs:errors)', () => {
    const file = readFileSync(path.join(__dirname, '../../../docs/errors.md'), 'utf8');
    expect(file).toBe(renderErrorsDoc());
    for (const code of Object.keys(ERROR_CATALOG)) expect(file).toContain(`| \`${code}\` |`);
  });
});
