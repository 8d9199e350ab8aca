import fc from 'fast-check';
import { money } from '#platform/domain/money';
import {
  assertMatchable,
  bankTransactionTransition,
  isMatchProblem,
  MatchPlan,
  planDepositMatch,
} from './bank-deposit';

const deposit = (amount: string) => ({ amount: money(amount), currency: 'USD' });
const inv = (id: string, due: string, currency = 'USD') => ({
  invoiceId: id,
  currency,
  amountDue: money(due),
});
const app = (id: string, amount: string) => ({ invoiceId: id, amount: money(amount) });

describe('deposit matching rules', () => {
  const open = [inv('a', '100'), inv('b', '200.5')];

  it('plans an exact match and a routed remainder', () => {
    const exact = planDepositMatch(
      deposit('300.5'),
      [app('a', '100'), app('b', '200.5')],
      open,
      null,
    ) as MatchPlan;
    expect(exact.applied.toFixed(4)).toBe('300.5000');
    expect(exact.remainder.isZero()).toBe(true);
    const routed = planDepositMatch(deposit('150'), [app('a', '100')], open, 'suspense') as MatchPlan;
    expect(routed.remainder.toFixed()).toBe('50');
  });

  it('names the field at fault, in order', () => {
    expect(planDepositMatch(deposit('1000'), [app('a', '1'), app('a', '1')], open, 'suspense')).toMatchObject(
      { kind: 'duplicate_invoice', param: 'applications[1].invoice_id' },
    );
    expect(planDepositMatch(deposit('1000'), [app('a', '1'), app('z', '1')], open, 'suspense')).toMatchObject(
      { kind: 'invoice_not_open', param: 'applications[1].invoice_id' },
    );
    expect(
      planDepositMatch(deposit('1000'), [app('e', '1')], [inv('e', '5', 'EUR')], 'suspense'),
    ).toMatchObject({ kind: 'currency_mismatch' });
    expect(planDepositMatch(deposit('1000'), [app('b', '200.5001')], open, 'suspense')).toMatchObject({
      kind: 'exceeds_amount_due',
      param: 'applications[0].amount',
    });
    expect(planDepositMatch(deposit('300'), [app('a', '100'), app('b', '200.5')], open, null)).toMatchObject({
      kind: 'exceeds_deposit',
      param: 'applications',
    });
    expect(
      planDepositMatch(deposit('300.51'), [app('a', '100'), app('b', '200.5')], open, null),
    ).toMatchObject({ kind: 'unrouted_remainder', param: 'route_unapplied' });
  });

  it('never plans more than the deposit nor a negative remainder (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 6_000_000 }),
        (amounts, dep) => {
          const invoices = amounts.map((a, i) => inv(`i${i}`, String(a / 100)));
          const apps = amounts.map((a, i) => app(`i${i}`, String(a / 100)));
          const result = planDepositMatch(deposit(String(dep / 100)), apps, invoices, 'customer_credit');
          if (isMatchProblem(result))
            return result.kind === 'exceeds_deposit' && result.applied.greaterThan(dep / 100);
          return (
            result.applied.plus(result.remainder).equals(money(dep / 100)) && !result.remainder.isNegative()
          );
        },
      ),
    );
  });
});

describe('matching a bank transaction', () => {
  it('matches an unmatched deposit', () => {
    expect(() => assertMatchable({ type: 'deposit', status: 'unmatched' })).not.toThrow();
  });

  it('refuses withdrawals and deposits already matched', () => {
    expect(() => assertMatchable({ type: 'withdrawal', status: 'unmatched' })).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: "Only deposits can be matched to invoices; this bank transaction is a 'withdrawal'.",
        details: { type: 'withdrawal' },
      }),
    );
    expect(() => assertMatchable({ type: 'deposit', status: 'matched' })).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: "Cannot match a bank transaction whose status is 'matched'; allowed from: unmatched.",
        details: { status: 'matched' },
      }),
    );
  });
});

describe('the bank transaction life cycle', () => {
  it('matches an unmatched transaction once: every allowed and refused move', () => {
    expect(bankTransactionTransition('match', 'unmatched')).toBe('matched');
    for (const status of ['matched', 'reconciled']) {
      expect(() => bankTransactionTransition('match', status)).toThrow(
        expect.objectContaining({
          code: 'invalid_state',
          message: `Cannot match a bank transaction whose status is '${status}'; allowed from: unmatched.`,
          details: { status },
        }),
      );
    }
  });
});
