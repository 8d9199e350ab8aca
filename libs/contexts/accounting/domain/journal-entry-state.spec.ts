import { ALLOWED_FROM, ENTRY_STATUSES, EntryAction, EntryState, transitionEntry } from './journal-entry';

const state = (
  status: EntryState['status'],
  approvalStatus: EntryState['approvalStatus'] = null,
): EntryState => ({
  status,
  approvalStatus,
});

describe('the journal entry state machine', () => {
  it('posts a draft, or sends it for approval above the threshold', () => {
    expect(transitionEntry('post', state('draft'))).toEqual(state('posted', 'auto_approved'));
    expect(transitionEntry('post', state('draft'), { needsApproval: true })).toEqual(
      state('pending_approval', 'pending_approval'),
    );
  });

  it('approves or rejects only what waits for approval', () => {
    const pending = state('pending_approval', 'pending_approval');
    expect(transitionEntry('approve', pending)).toEqual(state('posted', 'approved'));
    expect(transitionEntry('reject', pending)).toEqual(state('rejected', 'rejected'));
    expect(transitionEntry('approve', state('posted', 'auto_approved'))).toBeNull();
    expect(transitionEntry('reject', state('draft'))).toBeNull();
  });

  it('voids drafts and pending entries, reverses posted ones, keeping the approval status', () => {
    expect(transitionEntry('void', state('pending_approval', 'pending_approval'))).toEqual(
      state('voided', 'pending_approval'),
    );
    expect(transitionEntry('void', state('posted', 'auto_approved'))).toBeNull();
    expect(transitionEntry('reverse', state('posted', 'approved'))).toEqual(state('reversed', 'approved'));
    expect(transitionEntry('reverse', state('reversed', 'approved'))).toBeNull();
  });

  it('allows every action exactly from the statuses ALLOWED_FROM names (the invalid_state hints)', () => {
    for (const action of Object.keys(ALLOWED_FROM) as EntryAction[]) {
      for (const status of ENTRY_STATUSES) {
        const allowed = ALLOWED_FROM[action].includes(status);
        expect([action, status, transitionEntry(action, state(status)) !== null]).toEqual([
          action,
          status,
          allowed,
        ]);
      }
    }
  });
});
