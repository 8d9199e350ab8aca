import { money } from '#platform/domain/money';
import {
  assertReturnable,
  assertReturnTransition,
  refundAmountOf,
  returnableUnits,
  splitNetAndTax,
  statusAfterReceipt,
  statusAfterRefund,
} from './return-authorization';

const line = (order_item_id: string, quantity: number, received_quantity = 0) => ({
  order_item_id,
  product_id: null,
  quantity,
  received_quantity,
});

describe('return authorisation rules', () => {
  it('moves open → partially_received → received, cancels only while open', () => {
    expect(() => assertReturnTransition('receive', 'open', 'r')).not.toThrow();
    expect(() => assertReturnTransition('cancel', 'open', 'r')).not.toThrow();
    expect(() => assertReturnTransition('cancel', 'partially_received', 'r')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
    expect(() => assertReturnTransition('refund', 'open', 'r')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
    expect(() => assertReturnTransition('receive', 'received', 'r')).toThrow(/'received'/);
    expect(statusAfterReceipt([line('a', 2, 1), line('b', 1, 1)])).toBe('partially_received');
    expect(statusAfterReceipt([line('a', 2, 2), line('b', 1, 1)])).toBe('received');
    expect(statusAfterRefund('received', money(55), money(55))).toBe('refunded');
    expect(statusAfterRefund('received', money(55), money(20))).toBe('received');
    expect(statusAfterRefund('partially_received', money(55), money(55))).toBe('partially_received');
  });

  it('returns at most what shipped less what other returns hold', () => {
    const left = returnableUnits(new Map([['a', 3]]), [[line('a', 2)]]);
    expect(left.get('a')).toBe(1);
    expect(() => assertReturnable([{ order_item_id: 'a', quantity: 1 }], left)).not.toThrow();
    expect(() => assertReturnable([{ order_item_id: 'a', quantity: 2 }], left)).toThrow(
      expect.objectContaining({ code: 'quantity_exceeds_remaining' }),
    );
    expect(() => assertReturnable([{ order_item_id: 'b', quantity: 1 }], left)).toThrow(
      expect.objectContaining({ code: 'quantity_exceeds_remaining' }),
    );
  });

  it('refunds the unrefunded received value by default, capped by what the invoice can still be credited', () => {
    const received = { value: money(55), refunded: money(0) };
    expect(refundAmountOf(undefined, received, money(110)).toFixed(2)).toBe('55.00');
    expect(refundAmountOf(undefined, received, money(20)).toFixed(2)).toBe('20.00');
    expect(refundAmountOf(money(10), received, money(20)).toFixed(2)).toBe('10.00');
    expect(() => refundAmountOf(money(30), received, money(20))).toThrow(
      expect.objectContaining({ code: 'amount_exceeds_limit' }),
    );
    expect(() => refundAmountOf(money(60), received, money(110))).toThrow(
      expect.objectContaining({ code: 'amount_exceeds_limit' }),
    );
    expect(() => refundAmountOf(undefined, { value: money(55), refunded: money(55) }, money(110))).toThrow(
      expect.objectContaining({ code: 'amount_exceeds_limit' }),
    );
  });

  it('splits a refund into net and tax as the received value was', () => {
    const split = splitNetAndTax(money(22), { net: money(100), tax: money(10) });
    expect([split.net.toFixed(2), split.tax.toFixed(2)]).toEqual(['20.00', '2.00']);
    const untaxed = splitNetAndTax(money(7), { net: money(0), tax: money(0) });
    expect([untaxed.net.toFixed(2), untaxed.tax.toFixed(2)]).toEqual(['7.00', '0.00']);
  });
});
