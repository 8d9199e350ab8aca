import { nextState, Transitions } from '#platform/domain/state-machine';
import { ImportStatus } from './import-source';

/** An import that has ended (its rows all processed, or the import failed as a whole). */
export const isFinished = (status: ImportStatus): boolean =>
  status === 'completed' || status === 'completed_with_errors' || status === 'failed';

type ImportMove = 'start' | 'complete' | 'complete_with_errors' | 'fail';

/**
 * The import's state machine: `queued` → `running` when its job starts; `running` →
 * `completed` (or `completed_with_errors` when rows failed) once every row is processed;
 * `queued` or `running` → `failed` when its job runs out of attempts.
 */
const TRANSITIONS: Transitions<ImportStatus, ImportMove> = {
  queued: { start: 'running', fail: 'failed' },
  running: { complete: 'completed', complete_with_errors: 'completed_with_errors', fail: 'failed' },
  completed: {},
  completed_with_errors: {},
  failed: {},
};

/**
 * The status `action` leads the import to (`complete` with `failedRows` > 0 ends it with errors),
 * or null when the move does not apply (another worker moved it first, or it has ended): the
 * caller does nothing.
 */
export function importTransition(
  action: 'start' | 'complete' | 'fail',
  from: ImportStatus,
  failedRows = 0,
): ImportStatus | null {
  const move: ImportMove = action === 'complete' && failedRows > 0 ? 'complete_with_errors' : action;
  return nextState(TRANSITIONS, from, move);
}
