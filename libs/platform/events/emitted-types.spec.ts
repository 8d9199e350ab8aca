import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { missingEventTypes, recordEmittedType } from './emitted-types';

describe('event catalog coverage', () => {
  it('lists the catalog types neither emitted nor pending, in catalog order', () => {
    const catalog = ['order.created', 'order.deleted', 'return.created', 'invoice.overdue'];
    expect(missingEventTypes(catalog, ['order.created'], ['return.created'])).toEqual([
      'order.deleted',
      'invoice.overdue',
    ]);
    expect(missingEventTypes(catalog, catalog)).toEqual([]);
  });

  it('records each type once per process, only while a run directory is set', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'event-coverage-spec-'));
    const previous = process.env.EVENT_COVERAGE_DIR;
    try {
      delete process.env.EVENT_COVERAGE_DIR;
      recordEmittedType('account.updated');
      process.env.EVENT_COVERAGE_DIR = dir;
      recordEmittedType('account.created');
      recordEmittedType('account.created');
      recordEmittedType('account.deleted');
      const lines = readFileSync(path.join(dir, `${process.pid}.types`), 'utf8')
        .trim()
        .split('\n');
      expect(lines).toEqual(['account.created', 'account.deleted']);
    } finally {
      if (previous === undefined) delete process.env.EVENT_COVERAGE_DIR;
      else process.env.EVENT_COVERAGE_DIR = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
