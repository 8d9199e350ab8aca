import { assertBillAction, isPaid } from './vendor-bill';

describe('vendor bill state machine', () => {
  it('pays open and partially paid bills only', () => {
    expect(() => assertBillAction('pay', 'open')).not.toThrow();
    expect(() => assertBillAction('pay', 'partially_paid')).not.toThrow();
    expect(() => assertBillAction('pay', 'paid')).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: "Cannot pay a vendor bill whose status is 'paid'; allowed from: open, partially_paid.",
        details: { status: 'paid' },
      }),
    );
    expect(() => assertBillAction('pay', 'voided')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
  });

  it('voids an open bill only, never one with payments', () => {
    expect(() => assertBillAction('void', 'open')).not.toThrow();
    for (const status of ['partially_paid', 'paid', 'voided']) {
      expect(() => assertBillAction('void', status)).toThrow(
        expect.objectContaining({
          code: 'invalid_state',
          message: `Cannot void a vendor bill whose status is '${status}'; allowed from: open (no payments).`,
          details: { status },
        }),
      );
    }
  });

  it('is settled once paid', () => {
    expect(isPaid('paid')).toBe(true);
    expect(isPaid('partially_paid')).toBe(false);
  });
});
