import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  compareWithFloors,
  contextOf,
  floorsOf,
  main,
  MutantStatus,
  MutationReport,
  parseReport,
  scoresByContext,
} from './mutation-score';

/** A report with one file per entry, each holding mutants of the given statuses. */
function reportOf(files: Record<string, MutantStatus[]>): MutationReport {
  return {
    files: Object.fromEntries(
      Object.entries(files).map(([file, statuses]) => [
        file,
        {
          mutants: statuses.map((status, i) => ({
            id: `${file}#${i}`,
            mutatorName: 'EqualityOperator',
            status,
            location: { start: { line: i + 1, column: 1 } },
          })),
        },
      ]),
    ),
  };
}

const repeat = (status: MutantStatus, count: number): MutantStatus[] =>
  Array<MutantStatus>(count).fill(status);

describe('mutation-score', () => {
  describe('contextOf', () => {
    it.each([
      ['libs/contexts/sales/domain/order.ts', 'sales'],
      ['libs/contexts/accounting/domain/journal/entry.ts', 'accounting'],
      ['/work/clone/libs/contexts/catalog/domain/product.ts', 'catalog'],
      ['libs\\contexts\\inventory\\domain\\stock.ts', 'inventory'],
      ['libs/contexts/webhooks/domain/endpoint.ts', 'webhooks'],
      ['libs/contexts/webhooks/verifier/index.ts', 'verifier'],
      ['libs/platform/domain/state-machine.ts', 'platform'],
    ])('%s belongs to %s', (file, context) => {
      expect(contextOf(file)).toBe(context);
    });

    it.each([
      'libs/contexts/sales/application/order.service.ts',
      'libs/platform/http/route.ts',
      'scripts/x.ts',
    ])('refuses %s, which is outside the mutated layers', (file) => {
      expect(() => contextOf(file)).toThrow(/outside the mutated layers/);
    });
  });

  describe('parseReport', () => {
    it('reads the files and mutants of a Stryker JSON report', () => {
      const text = JSON.stringify({
        schemaVersion: '2',
        thresholds: { high: 80, low: 60 },
        files: { 'libs/contexts/sales/domain/order.ts': { language: 'typescript', source: '', mutants: [] } },
      });
      expect(Object.keys(parseReport(text).files)).toEqual(['libs/contexts/sales/domain/order.ts']);
    });

    it.each([
      ['no files object', '{}'],
      ['files as an array', '{"files":[]}'],
      ['a file without mutants', '{"files":{"a.ts":{}}}'],
      ['an unknown status', '{"files":{"a.ts":{"mutants":[{"status":"Dead"}]}}}'],
      ['null', 'null'],
    ])('refuses %s', (_, text) => {
      expect(() => parseReport(text)).toThrow(/not a mutation report/);
    });
  });

  describe('scoresByContext', () => {
    it('groups the files of a context and scores detected over detected plus undetected', () => {
      const scores = scoresByContext(
        reportOf({
          // sales over two files: 5 killed + 1 timeout detected, 2 survived + 1 no coverage undetected,
          // 3 compile errors, 1 runtime error and 4 ignored outside the score: 6 / 9 = 66.666...% → 66.66.
          'libs/contexts/sales/domain/order.ts': [
            ...repeat('Killed', 3),
            'Timeout',
            'Survived',
            'CompileError',
          ],
          'libs/contexts/sales/domain/pricing.ts': [
            ...repeat('Killed', 2),
            'Survived',
            'NoCoverage',
            ...repeat('CompileError', 2),
            'RuntimeError',
            ...repeat('Ignored', 4),
          ],
          // verifier: 7 of 8 → 87.5%
          'libs/contexts/webhooks/verifier/index.ts': [...repeat('Killed', 7), 'Survived'],
          // platform: only ignored and compile errors → no valid mutant
          'libs/platform/domain/state-machine.ts': ['Ignored', 'CompileError'],
        }),
      );
      expect(scores).toEqual([
        {
          context: 'platform',
          killed: 0,
          timeout: 0,
          survived: 0,
          noCoverage: 0,
          errors: 1,
          ignored: 1,
          score: null,
        },
        {
          context: 'sales',
          killed: 5,
          timeout: 1,
          survived: 2,
          noCoverage: 1,
          errors: 4,
          ignored: 4,
          score: 66.66,
        },
        {
          context: 'verifier',
          killed: 7,
          timeout: 0,
          survived: 1,
          noCoverage: 0,
          errors: 0,
          ignored: 0,
          score: 87.5,
        },
      ]);
    });

    it('rounds down, so a score just under a floor never shows as equal to it', () => {
      // 199 of 201 = 99.0049...% → 99.00; 2 of 3 = 66.666...% → 66.66 (not 66.67)
      const [a] = scoresByContext(
        reportOf({
          'libs/contexts/catalog/domain/p.ts': [...repeat('Killed', 199), ...repeat('Survived', 2)],
        }),
      );
      const [b] = scoresByContext(
        reportOf({ 'libs/contexts/catalog/domain/p.ts': ['Killed', 'Killed', 'Survived'] }),
      );
      expect(a.score).toBe(99);
      expect(b.score).toBe(66.66);
    });

    it('refuses a report with mutants still pending (an interrupted run)', () => {
      expect(() =>
        scoresByContext(reportOf({ 'libs/contexts/sales/domain/order.ts': ['Killed', 'Pending'] })),
      ).toThrow(/still Pending/);
    });
  });

  describe('compareWithFloors', () => {
    const scores = scoresByContext(
      reportOf({
        'libs/contexts/sales/domain/order.ts': [...repeat('Killed', 3), 'Survived'], // 75%
        'libs/contexts/webhooks/verifier/index.ts': repeat('Killed', 4), // 100%
      }),
    );

    it('passes when every context is at or above its floor', () => {
      expect(compareWithFloors(scores, { sales: 75, verifier: 99.5 })).toEqual([]);
    });

    it('fails a context below its floor, by as little as 0.01', () => {
      expect(compareWithFloors(scores, { sales: 75.01, verifier: 100 })).toEqual([
        'sales: mutation score 75.00% is below its floor of 75.01%',
      ]);
    });

    it('fails a context without a floor and a floor without a context', () => {
      expect(compareWithFloors(scores, { sales: 50, catalog: 80 })).toEqual([
        'verifier: no floor in the floor file (record one with --record)',
        'catalog: has a floor but no mutated file in the report',
      ]);
    });

    it('fails a context whose mutants all stopped counting while its floor is above zero', () => {
      const none = scoresByContext(reportOf({ 'libs/platform/domain/state-machine.ts': ['Ignored'] }));
      expect(compareWithFloors(none, { platform: 40 })).toEqual([
        'platform: no mutant was tested, the floor is 40.00%',
      ]);
      expect(compareWithFloors(none, { platform: 0 })).toEqual([]);
    });

    it('records floors that the same scores meet', () => {
      const floors = floorsOf(scores);
      expect(floors).toEqual({ sales: 75, verifier: 100 });
      expect(compareWithFloors(scores, floors)).toEqual([]);
    });
  });

  describe('main', () => {
    let dir: string;
    const write = (name: string, value: unknown) => {
      const file = path.join(dir, name);
      writeFileSync(file, JSON.stringify(value));
      return file;
    };
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'mutation-score-'));
      jest.spyOn(console, 'log').mockImplementation(() => undefined);
      jest.spyOn(console, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => {
      jest.restoreAllMocks();
      rmSync(dir, { recursive: true, force: true });
    });

    const report = reportOf({
      'libs/contexts/sales/domain/order.ts': [...repeat('Killed', 9), 'Survived'], // 90%
      'libs/platform/domain/state-machine.ts': ['Killed', 'NoCoverage'], // 50%
    });

    it('exits 0 at the floors and 1 below one of them', () => {
      const reportFile = write('report.json', report);
      expect(main(['--report', reportFile, '--floor', write('ok.json', { sales: 90, platform: 50 })])).toBe(
        0,
      );
      expect(
        main(['--report', reportFile, '--floor', write('high.json', { sales: 90, platform: 50.5 })]),
      ).toBe(1);
      expect(console.error).toHaveBeenCalledWith(
        '  platform: mutation score 50.00% is below its floor of 50.50%',
      );
    });

    it('--record writes floors that the next check passes', () => {
      const reportFile = write('report.json', report);
      const floorFile = path.join(dir, 'floor.json');
      expect(main(['--report', reportFile, '--floor', floorFile, '--record'])).toBe(0);
      expect(JSON.parse(readFileSync(floorFile, 'utf8'))).toEqual({ platform: 50, sales: 90 });
      expect(main(['--report', reportFile, '--floor', floorFile])).toBe(0);
    });

    it('refuses a floor that is not a percentage and an unknown argument', () => {
      const reportFile = write('report.json', report);
      expect(() => main(['--report', reportFile, '--floor', write('bad.json', { sales: '90' })])).toThrow(
        /not a percentage/,
      );
      expect(main(['--verbose'])).toBe(2);
    });
  });
});
