import { finalStatus, ImportStatus } from './import-source';

/** An import that has ended (its rows all processed, or the import failed as a whole). */
export const isFinished = (status: ImportStatus): boolean =>
  status === 'completed' || status === 'completed_with_errors' || status === 'failed';

/**
 * The import's state machine: `queued` → `running` when its job starts; `running` →
 * `completed` (or `completed_with_errors` when rows failed) once every row is processed;
 * `queued` or `running` → `failed` when its job runs out of attempts. Null when the move does
 * not apply (another worker moved it first, or it has ended): the caller does nothing.
 */
export function importTransition(
  action: 'start' | 'complete' | 'fail',
  from: ImportStatus,
  failedRows = 0,
): ImportStatus | null {
  switch (action) {
    case 'start':
      return from === 'queued' ? 'running' : null;
    case 'complete':
      return from === 'running' ? finalStatus(failedRows) : null;
    case 'fail':
      return isFinished(from) ? null : 'failed';
  }
}
