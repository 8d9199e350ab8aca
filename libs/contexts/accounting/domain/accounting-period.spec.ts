import { assertDateRange, fiscalYearTransition, periodTransition } from './accounting-period';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { code: (error as { code: string }).code, hint: (error as Error).message };
  }
  return undefined;
};

describe('accounting period state machine', () => {
  it('closes an open period and reopens a closed one', () => {
    expect(periodTransition('close', { name: 'P1', status: 'open', unfinishedEntries: [] })).toBe('closed');
    expect(periodTransition('reopen', { name: 'P1', status: 'closed', fiscalYear: null })).toBe('open');
  });

  it('refuses a move from the wrong status with invalid_state naming it', () => {
    expect(codeOf(() => periodTransition('close', { name: 'P1', status: 'closed' }))).toEqual({
      code: 'invalid_state',
      hint: "Cannot close a accounting period whose status is 'closed'; allowed from: open.",
    });
    expect(codeOf(() => periodTransition('reopen', { name: 'P1', status: 'open' }))?.code).toBe(
      'invalid_state',
    );
  });

  it('refuses to close a period that holds drafts or pending entries', () => {
    const refused = codeOf(() =>
      periodTransition('close', {
        name: 'P1',
        status: 'open',
        unfinishedEntries: [
          { status: 'draft', n: 2 },
          { status: 'pending_approval', n: 1 },
        ],
      }),
    );
    expect(refused?.code).toBe('invalid_state');
    expect(refused?.hint).toContain('2 draft and 1 pending_approval');
  });

  it('refuses to reopen a period of a closed fiscal year', () => {
    const refused = codeOf(() =>
      periodTransition('reopen', {
        name: 'P1',
        status: 'closed',
        fiscalYear: { name: 'FY', status: 'closed' },
      }),
    );
    expect(refused).toEqual({ code: 'invalid_state', hint: 'Fiscal year FY is closed; reopen it first.' });
    expect(
      periodTransition('reopen', {
        name: 'P1',
        status: 'closed',
        fiscalYear: { name: 'FY', status: 'open' },
      }),
    ).toBe('open');
  });

  it('moves fiscal years between open and closed', () => {
    expect(fiscalYearTransition('close', 'open')).toBe('closed');
    expect(fiscalYearTransition('reopen', 'closed')).toBe('open');
    expect(codeOf(() => fiscalYearTransition('close', 'closed'))?.code).toBe('invalid_state');
    expect(codeOf(() => fiscalYearTransition('reopen', 'open'))?.code).toBe('invalid_state');
  });

  it('refuses an end date before the start date', () => {
    expect(() => assertDateRange('2026-01-01', '2026-12-31')).not.toThrow();
    expect(() => assertDateRange('2026-01-01', '2026-01-01')).not.toThrow();
    expect(codeOf(() => assertDateRange('2026-02-01', '2026-01-31'))?.code).toBe('parameter_invalid');
  });
});
