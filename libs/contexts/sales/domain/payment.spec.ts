import { money } from '#platform/domain/money';
import { isRefundable, paymentTransition, refundAmount, statusAfterRefund } from './payment';

const payment = (status: string, amount: string, refunded = '0') => ({
  id: 'pay_1',
  status,
  amount: money(amount),
  amountRefunded: money(refunded),
});

describe('payment state machine', () => {
  it.each([
    ['succeeded', 'refund', 'partially_refunded'],
    ['succeeded', 'refund_rest', 'refunded'],
    ['partially_refunded', 'refund', 'partially_refunded'],
    ['partially_refunded', 'refund_rest', 'refunded'],
  ] as const)('moves %s --%s--> %s', (status, action, next) => {
    expect(paymentTransition(action, { id: 'pay_1', status })).toBe(next);
  });

  it.each([
    ['failed', 'refund'],
    ['failed', 'refund_rest'],
    ['refunded', 'refund'],
    ['refunded', 'refund_rest'],
  ] as const)('refuses %s --%s--> with 409 invalid_state', (status, action) => {
    expect(() => paymentTransition(action, { id: 'pay_1', status })).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: `Payment 'pay_1' has status '${status}'; only a succeeded or partially_refunded payment can be refunded.`,
      }),
    );
  });

  it('allows a refund from succeeded and partially_refunded only', () => {
    expect(['succeeded', 'failed', 'partially_refunded', 'refunded', 'pending'].filter(isRefundable)).toEqual(
      ['succeeded', 'partially_refunded'],
    );
  });
});

describe('payment refunds', () => {
  it('refunds what is left of a succeeded or partially refunded payment, all of it by default', () => {
    expect(refundAmount(payment('succeeded', '100'), undefined).toString()).toBe('100');
    expect(refundAmount(payment('succeeded', '100'), money(30)).toString()).toBe('30');
    expect(refundAmount(payment('partially_refunded', '100', '30'), undefined).toString()).toBe('70');
    expect(refundAmount(payment('partially_refunded', '100', '30'), money(70)).toString()).toBe('70');
  });

  it('refuses a payment in any other status with invalid_state', () => {
    for (const status of ['refunded', 'failed', 'pending']) {
      expect(() => refundAmount(payment(status, '100'), undefined)).toThrow(
        expect.objectContaining({
          code: 'invalid_state',
          message: `Payment 'pay_1' has status '${status}'; only a succeeded or partially_refunded payment can be refunded.`,
        }),
      );
    }
  });

  it('refuses more than is left to refund with amount_exceeds_limit on amount', () => {
    expect(() => refundAmount(payment('partially_refunded', '100', '30'), money('70.01'))).toThrow(
      expect.objectContaining({
        code: 'amount_exceeds_limit',
        param: 'amount',
        message: "At most 70.00 of payment 'pay_1' is left to refund.",
      }),
    );
  });

  it('is refunded once the refunds reach the amount', () => {
    expect(statusAfterRefund(payment('succeeded', '100', '100'))).toBe('refunded');
    expect(statusAfterRefund(payment('succeeded', '100', '99.99'))).toBe('partially_refunded');
    expect(statusAfterRefund(payment('partially_refunded', '100', '100'))).toBe('refunded');
  });
});
