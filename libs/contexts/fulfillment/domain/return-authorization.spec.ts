import { money } from '#platform/domain/money';
import {
  assertReturnable,
  refundAmountOf,
  returnableUnits,
  returnTransition,
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

describe('return state machine', () => {
  it.each([
    ['open', 'receive', 'partially_received'],
    ['open', 'receive_rest', 'received'],
    ['open', 'cancel', 'cancelled'],
    ['partially_received', 'receive', 'partially_received'],
    ['partially_received', 'receive_rest', 'received'],
    ['partially_received', 'refund', 'partially_received'],
    ['received', 'refund', 'received'],
    ['received', 'refund_rest', 'refunded'],
  ] as const)('moves %s --%s--> %s', (status, action, next) => {
    expect(returnTransition(action, status, 'r')).toBe(next);
  });

  it.each([
    [
      'open',
      'refund',
      "Return 'r' has status 'open'; it can be refunded only when 'partially_received' or 'received'.",
    ],
    ['open', 'refund_rest', "Return 'r' has status 'open'; it can be refunded only when 'received'."],
    [
      'partially_received',
      'cancel',
      "Return 'r' has status 'partially_received'; it can be cancelled only when 'open'.",
    ],
    [
      'partially_received',
      'refund_rest',
      "Return 'r' has status 'partially_received'; it can be refunded only when 'received'.",
    ],
    [
      'received',
      'receive',
      "Return 'r' has status 'received'; it can be received only when 'open' or 'partially_received'.",
    ],
    [
      'received',
      'receive_rest',
      "Return 'r' has status 'received'; it can be received only when 'open' or 'partially_received'.",
    ],
    ['received', 'cancel', "Return 'r' has status 'received'; it can be cancelled only when 'open'."],
    [
      'refunded',
      'receive',
      "Return 'r' has status 'refunded'; it can be received only when 'open' or 'partially_received'.",
    ],
    [
      'refunded',
      'receive_rest',
      "Return 'r' has status 'refunded'; it can be received only when 'open' or 'partially_received'.",
    ],
    [
      'refunded',
      'refund',
      "Return 'r' has status 'refunded'; it can be refunded only when 'partially_received' or 'received'.",
    ],
    ['refunded', 'refund_rest', "Return 'r' has status 'refunded'; it can be refunded only when 'received'."],
    ['refunded', 'cancel', "Return 'r' has status 'refunded'; it can be cancelled only when 'open'."],
    [
      'cancelled',
      'receive',
      "Return 'r' has status 'cancelled'; it can be received only when 'open' or 'partially_received'.",
    ],
    [
      'cancelled',
      'receive_rest',
      "Return 'r' has status 'cancelled'; it can be received only when 'open' or 'partially_received'.",
    ],
    [
      'cancelled',
      'refund',
      "Return 'r' has status 'cancelled'; it can be refunded only when 'partially_received' or 'received'.",
    ],
    [
      'cancelled',
      'refund_rest',
      "Return 'r' has status 'cancelled'; it can be refunded only when 'received'.",
    ],
    ['cancelled', 'cancel', "Return 'r' has status 'cancelled'; it can be cancelled only when 'open'."],
  ] as const)('refuses %s --%s--> with 409 invalid_state', (status, action, message) => {
    expect(() => returnTransition(action, status, 'r')).toThrow(
      expect.objectContaining({ code: 'invalid_state', message }),
    );
  });

  it('receives to received once every unit is back, refunds to refunded once what came back is refunded', () => {
    expect(statusAfterReceipt({ id: 'r', status: 'open', lines: [line('a', 2, 1), line('b', 1, 1)] })).toBe(
      'partially_received',
    );
    expect(statusAfterReceipt({ id: 'r', status: 'open', lines: [line('a', 2, 2), line('b', 1, 1)] })).toBe(
      'received',
    );
    expect(
      statusAfterReceipt({
        id: 'r',
        status: 'partially_received',
        lines: [line('a', 2, 2), line('b', 1, 1)],
      }),
    ).toBe('received');
    expect(statusAfterRefund({ id: 'r', status: 'received' }, money(55), money(55))).toBe('refunded');
    expect(statusAfterRefund({ id: 'r', status: 'received' }, money(55), money(20))).toBe('received');
    expect(statusAfterRefund({ id: 'r', status: 'partially_received' }, money(55), money(55))).toBe(
      'partially_received',
    );
  });
});

describe('return authorisation rules', () => {
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
