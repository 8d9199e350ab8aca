import { allowedFrom, nextState, transition, Transitions, withMoves } from './state-machine';

type Status = 'open' | 'held' | 'closed';
type Action = 'hold' | 'release' | 'close';

const table: Transitions<Status, Action> = {
  open: { hold: 'held', close: 'closed' },
  held: { release: 'open', close: 'closed' },
  closed: {},
};

describe('the state machine helper', () => {
  it('answers the next status the table names', () => {
    expect(nextState(table, 'open', 'hold')).toBe('held');
    expect(nextState(table, 'held', 'release')).toBe('open');
    expect(transition(table, 'held', 'close', () => new Error('refused'))).toBe('closed');
  });

  it('answers null for a move the table lacks, and for a status it does not know', () => {
    expect(nextState(table, 'closed', 'release')).toBeNull();
    expect(nextState(table, 'open', 'release')).toBeNull();
    expect(nextState(table, 'constructor', 'hold')).toBeNull();
    expect(nextState(table, 'archived', 'hold')).toBeNull();
  });

  it('lists the statuses an action starts from in the order of the table', () => {
    expect(allowedFrom(table, 'close')).toEqual(['open', 'held']);
    expect(allowedFrom(table, 'release')).toEqual(['held']);
  });

  it('throws the error the caller makes of the current status and the allowed ones', () => {
    const refuse = jest.fn(
      (status: string, allowed: readonly string[]) => new Error(`${status}:${allowed.join('|')}`),
    );
    expect(() => transition(table, 'closed', 'close', refuse)).toThrow('closed:open|held');
    expect(refuse).toHaveBeenCalledWith('closed', ['open', 'held']);
  });

  it('adds moves to the rows of a table, keeping its statuses and their order', () => {
    const wider = withMoves(table, { closed: { release: 'open' }, open: { release: 'open' } });
    expect(Object.keys(wider)).toEqual(['open', 'held', 'closed']);
    expect(nextState(wider, 'closed', 'release')).toBe('open');
    expect(nextState(wider, 'open', 'hold')).toBe('held');
    expect(allowedFrom(wider, 'release')).toEqual(['open', 'held', 'closed']);
    expect(nextState(table, 'closed', 'release')).toBeNull();
  });
});
