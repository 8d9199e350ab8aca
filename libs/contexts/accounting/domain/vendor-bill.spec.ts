import { money } from '#platform/domain/money';
import { isPaid, statusAfterPayment, vendorBillTransition } from './vendor-bill';

describe('vendor bill state machine', () => {
  it.each([
    ['open', 'pay', 'partially_paid'],
    ['open', 'pay_rest', 'paid'],
    ['open', 'void', 'voided'],
    ['partially_paid', 'pay', 'partially_paid'],
    ['partially_paid', 'pay_rest', 'paid'],
  ] as const)('moves %s --%s--> %s', (status, action, next) => {
    expect(vendorBillTransition(action, status)).toBe(next);
  });

  it.each([
    [
      'partially_paid',
      'void',
      "Cannot void a vendor bill whose status is 'partially_paid'; allowed from: open (no payments).",
    ],
    ['paid', 'pay', "Cannot pay a vendor bill whose status is 'paid'; allowed from: open, partially_paid."],
    [
      'paid',
      'pay_rest',
      "Cannot pay a vendor bill whose status is 'paid'; allowed from: open, partially_paid.",
    ],
    ['paid', 'void', "Cannot void a vendor bill whose status is 'paid'; allowed from: open (no payments)."],
    [
      'voided',
      'pay',
      "Cannot pay a vendor bill whose status is 'voided'; allowed from: open, partially_paid.",
    ],
    [
      'voided',
      'pay_rest',
      "Cannot pay a vendor bill whose status is 'voided'; allowed from: open, partially_paid.",
    ],
    [
      'voided',
      'void',
      "Cannot void a vendor bill whose status is 'voided'; allowed from: open (no payments).",
    ],
  ] as const)('refuses %s --%s--> with 409 invalid_state naming the status', (status, action, message) => {
    expect(() => vendorBillTransition(action, status)).toThrow(
      expect.objectContaining({ code: 'invalid_state', message, details: { status } }),
    );
  });

  it('is paid once the payments reach the amount, partially paid before', () => {
    expect(statusAfterPayment({ status: 'open', amount: money(10) }, money('9.9999'))).toBe('partially_paid');
    expect(statusAfterPayment({ status: 'open', amount: money(10) }, money(10))).toBe('paid');
    expect(statusAfterPayment({ status: 'partially_paid', amount: money(10) }, money('9.9999'))).toBe(
      'partially_paid',
    );
    expect(statusAfterPayment({ status: 'partially_paid', amount: money(10) }, money(10))).toBe('paid');
  });

  it('is settled once paid', () => {
    expect(isPaid('paid')).toBe(true);
    expect(isPaid('partially_paid')).toBe(false);
  });
});
