import { money } from '#platform/domain/money';
import { balanceAfter, creditApplicationAmount, creditMemoSettlement } from './customer-credit';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('creditApplicationAmount', () => {
  it('defaults to as much of the amount due as the balance covers', () => {
    expect(creditApplicationAmount(undefined, money(30), money(100)).toFixed(2)).toBe('30.00');
    expect(creditApplicationAmount(undefined, money(130), money(100)).toFixed(2)).toBe('100.00');
  });

  it('takes an explicit amount within both limits', () => {
    expect(creditApplicationAmount(money('12.34'), money(30), money(100)).toFixed(2)).toBe('12.34');
    expect(creditApplicationAmount(money(30), money(30), money(30)).toFixed(2)).toBe('30.00');
  });

  it('refuses more than the balance, more than the amount due, and an empty balance', () => {
    expect(codeOf(() => creditApplicationAmount(money('30.01'), money(30), money(100)))).toBe(
      'amount_exceeds_limit',
    );
    expect(codeOf(() => creditApplicationAmount(money('100.01'), money(500), money(100)))).toBe(
      'amount_exceeds_limit',
    );
    expect(codeOf(() => creditApplicationAmount(undefined, money(0), money(100)))).toBe(
      'amount_exceeds_limit',
    );
  });
});

describe('balanceAfter', () => {
  it('adds and spends, never below zero', () => {
    expect(balanceAfter(money(10), money(5)).toFixed(2)).toBe('15.00');
    expect(balanceAfter(money(10), money(-10)).toFixed(2)).toBe('0.00');
    expect(codeOf(() => balanceAfter(money(10), money('-10.01')))).toBe('amount_exceeds_limit');
  });
});

describe('creditMemoSettlement', () => {
  it('takes an unpaid invoice’s credit memo entirely off the amount due', () => {
    const s = creditMemoSettlement(money(55), { amountDue: money(110), amountPaid: money(0) });
    expect([s.amountDueReduced.toFixed(2), s.paidBack.toFixed(2)]).toEqual(['55.00', '0.00']);
  });

  it('pays back only the part of a partly paid invoice’s credit memo beyond the amount due', () => {
    const s = creditMemoSettlement(money(80), { amountDue: money(70), amountPaid: money(30) });
    expect([s.amountDueReduced.toFixed(2), s.paidBack.toFixed(2)]).toEqual(['70.00', '10.00']);
  });

  it('pays back the whole credit memo of a paid invoice', () => {
    const s = creditMemoSettlement(money(55), { amountDue: money(0), amountPaid: money(110) });
    expect([s.amountDueReduced.toFixed(2), s.paidBack.toFixed(2)]).toEqual(['0.00', '55.00']);
  });

  it('refuses a credit memo above what the invoice bills and holds', () => {
    expect(
      codeOf(() => creditMemoSettlement(money('100.01'), { amountDue: money(70), amountPaid: money(30) })),
    ).toBe('amount_exceeds_limit');
  });
});
