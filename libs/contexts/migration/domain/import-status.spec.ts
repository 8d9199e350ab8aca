import { importTransition, isFinished } from './import-status';

describe('the import state machine', () => {
  it('starts a queued import once', () => {
    expect(importTransition('start', 'queued')).toBe('running');
    expect(importTransition('start', 'running')).toBeNull();
    expect(importTransition('start', 'completed')).toBeNull();
  });

  it('completes a running import, with errors when rows failed', () => {
    expect(importTransition('complete', 'running', 0)).toBe('completed');
    expect(importTransition('complete', 'running', 3)).toBe('completed_with_errors');
    expect(importTransition('complete', 'queued')).toBeNull();
    expect(importTransition('complete', 'failed')).toBeNull();
  });

  it('fails an import that has not ended, and only such', () => {
    expect(importTransition('fail', 'queued')).toBe('failed');
    expect(importTransition('fail', 'running')).toBe('failed');
    for (const ended of ['completed', 'completed_with_errors', 'failed'] as const) {
      expect(isFinished(ended)).toBe(true);
      expect(importTransition('fail', ended)).toBeNull();
    }
    expect(isFinished('running')).toBe(false);
  });
});
