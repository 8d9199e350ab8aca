import {
  ENTRY_STATUSES,
  EntryAction,
  entryAllowedFrom,
  EntryState,
  entryTransition,
  newEntryState,
} from './journal-entry';

/** The state `action` leads to, or null when it is refused with 409 invalid_state. */
const transitionEntry = (
  action: EntryAction,
  from: EntryState,
  options: { needsApproval?: boolean } = {},
): EntryState | null => {
  try {
    return entryTransition(action, from, options);
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_state', details: { status: from.status } });
    return null;
  }
};

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

  it('writes a new entry as a draft, posted, or waiting for approval', () => {
    expect(newEntryState('draft', false)).toEqual(state('draft'));
    expect(newEntryState('posted', false)).toEqual(state('posted', 'auto_approved'));
    expect(newEntryState('posted', true)).toEqual(state('pending_approval', 'pending_approval'));
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

  it('leads from each status to the status written here, and refuses the rest', () => {
    // Written by hand: the status each action leads to from each status, '-' where it is refused
    // (409 invalid_state). Columns: draft, pending_approval, posted, reversed, voided, rejected.
    // prettier-ignore
    const table: Record<EntryAction, string> = {
      //         draft    pending_approval posted   reversed voided rejected
      post:    ' posted   -                -        -        -      -',
      approve: ' -        posted           -        -        -      -',
      reject:  ' -        rejected         -        -        -      -',
      void:    ' voided   voided           -        -        -      -',
      reverse: ' -        -                reversed -        -      -',
      update:  ' draft    -                -        -        -      -',
      delete:  ' draft    -                -        -        -      -',
    };
    const columns = ['draft', 'pending_approval', 'posted', 'reversed', 'voided', 'rejected'] as const;
    expect([...ENTRY_STATUSES].sort()).toEqual([...columns].sort());
    const expected = Object.entries(table).flatMap(([action, row]) =>
      row
        .trim()
        .split(/\s+/)
        .map((to, i) => [action, columns[i], to === '-' ? null : to]),
    );
    expect(expected).toHaveLength(7 * 6);
    const actual = expected.map(([action, from]) => [
      action,
      from,
      transitionEntry(action as EntryAction, state(from as EntryState['status']))?.status ?? null,
    ]);
    expect(actual).toEqual(expected);
  });

  it('names in the invalid_state hints the statuses written above', () => {
    expect(() => entryTransition('void', state('posted', 'auto_approved'))).toThrow(
      "Cannot void a journal entry whose status is 'posted'; allowed from: draft, pending_approval.",
    );
    const actions: EntryAction[] = ['post', 'approve', 'reject', 'void', 'reverse', 'update', 'delete'];
    expect(Object.fromEntries(actions.map((a) => [a, entryAllowedFrom(a)]))).toEqual({
      post: ['draft'],
      approve: ['pending_approval'],
      reject: ['pending_approval'],
      void: ['draft', 'pending_approval'],
      reverse: ['posted'],
      update: ['draft'],
      delete: ['draft'],
    });
  });
});
