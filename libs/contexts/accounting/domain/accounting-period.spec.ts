import {
  assertDateRange,
  fiscalYearTransition,
  openPeriod,
  periodClosed,
  periodsClosedWithYear,
  periodTransition,
} from './accounting-period';

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

  it('closes only the open periods with their fiscal year', () => {
    const periods = [
      { name: 'Jan', status: 'closed' },
      { name: 'Feb', status: 'open' },
      { name: 'Mar', status: 'open' },
    ];
    expect(periodsClosedWithYear(periods).map((p) => p.name)).toEqual(['Feb', 'Mar']);
    expect(periodsClosedWithYear([{ status: 'closed' }])).toEqual([]);
  });
});

describe('the open-period rule', () => {
  const open = { id: 'p1', name: 'P1', status: 'open' };
  const closed = { id: 'p2', name: 'P2', status: 'closed' };

  it('gives back the open period covering the date', () => {
    expect(openPeriod(open, { date: '2026-01-15' })).toBe(open);
  });

  it('refuses a date no period covers with period_closed on entry_date', () => {
    expect(codeOf(() => openPeriod(null, { date: '2026-01-15' }))).toEqual({
      code: 'period_closed',
      hint: 'No accounting period covers 2026-01-15.',
    });
    expect(codeOf(() => openPeriod(undefined, { date: '2026-01-15' }))?.code).toBe('period_closed');
  });

  it('refuses a closed period, naming it, the date and the field', () => {
    const refused = (() => {
      try {
        openPeriod(closed, { date: '2026-01-15', param: 'reverse_in_period_id' });
      } catch (error) {
        return error as { code: string; message: string; param?: string };
      }
      return undefined;
    })();
    expect(refused?.code).toBe('period_closed');
    expect(refused?.message).toBe('The accounting period P2 covering 2026-01-15 is closed.');
    expect(refused?.param).toBe('reverse_in_period_id');
    expect(periodClosed(closed).message).toBe('The accounting period P2 is closed.');
  });
});
