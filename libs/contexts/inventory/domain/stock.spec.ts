import Decimal from 'decimal.js';
import fc from 'fast-check';
import { InventoryError } from './inventory-error';
import {
  assertStockSuffices,
  countDelta,
  crossingEvents,
  stockLevelOf,
  valueMovement,
  Valuation,
} from './stock';

const d = (v: Decimal.Value) => new Decimal(v);
const empty: Valuation = { onHand: 0, value: d(0), unitCost: d(0) };

describe('moving weighted average', () => {
  it('averages receipts and issues at the average', () => {
    const a = valueMovement(empty, 10, d('4'));
    expect(a.value.toFixed(4)).toBe('40.0000');
    const b = valueMovement(a.after, 10, d('6'));
    expect(b.after.unitCost.toFixed(4)).toBe('5.0000');
    const c = valueMovement(b.after, -4);
    expect(c.unitCost.toFixed(4)).toBe('5.0000');
    expect(c.value.toFixed(4)).toBe('-20.0000');
    expect(c.after.onHand).toBe(16);
    expect(c.after.value.toFixed(4)).toBe('80.0000');
  });

  it('takes exactly the value left when a movement empties the balance', () => {
    const a = valueMovement(empty, 3, d('1'));
    const b = valueMovement(a.after, 0 + 1, d('2'));
    // 5 / 4 = 1.25; three more at 1.3333 -> value 9, 7 units
    const c = valueMovement(b.after, 3, d('1.3333'));
    const out = valueMovement(c.after, -c.after.onHand);
    expect(out.after.value.isZero()).toBe(true);
    expect(out.value.toFixed(4)).toBe(c.after.value.negated().toFixed(4));
  });

  it('brings incoming units in at the average when no cost is given', () => {
    const a = valueMovement(empty, 2, d('7.5'));
    const b = valueMovement(a.after, 1);
    expect(b.unitCost.toFixed(4)).toBe('7.5000');
    expect(b.after.value.toFixed(4)).toBe('22.5000');
  });

  it('carries an exact incoming value (a transfer in)', () => {
    const b = valueMovement(empty, 3, undefined, d('10'));
    expect(b.value.toFixed(4)).toBe('10.0000');
    expect(b.unitCost.toFixed(4)).toBe('3.3333');
  });

  it('keeps value equal to the sum of movement values (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 100000 })), {
          maxLength: 60,
        }),
        (steps) => {
          let state = empty;
          let sum = d(0);
          let units = 0;
          for (const [q, cents] of steps) {
            if (q === 0 || state.onHand + q < 0) continue;
            const moved = valueMovement(state, q, q > 0 ? d(cents).dividedBy(100) : undefined);
            sum = sum.plus(moved.value);
            units += q;
            state = moved.after;
          }
          expect(state.value.equals(sum)).toBe(true);
          expect(state.onHand).toBe(units);
          // Nothing on hand is worth nothing.
          expect(state.onHand === 0 ? state.value.isZero() : true).toBe(true);
        },
      ),
    );
  });
});

describe('stock rules', () => {
  it('refuses to go below zero unless allowed, with param and hint', () => {
    const attempt = () =>
      assertStockSuffices({
        onHand: 2,
        quantity: -3,
        allowNegative: false,
        productId: 'p',
        locationId: 'l',
        param: 'quantity',
      });
    expect(attempt).toThrow(InventoryError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'insufficient_stock', param: 'quantity' }));
    expect(() =>
      assertStockSuffices({ onHand: 2, quantity: -3, allowNegative: true, productId: 'p', locationId: 'l' }),
    ).not.toThrow();
    expect(() =>
      assertStockSuffices({ onHand: 2, quantity: -2, allowNegative: false, productId: 'p', locationId: 'l' }),
    ).not.toThrow();
  });

  it('places a balance against its thresholds', () => {
    expect(stockLevelOf(0, 5)).toBe('out');
    expect(stockLevelOf(-1, null)).toBe('out');
    expect(stockLevelOf(5, 5)).toBe('low');
    expect(stockLevelOf(6, 5)).toBe('in_stock');
    expect(stockLevelOf(1, null)).toBe('in_stock');
  });

  it('emits once per crossing', () => {
    expect(crossingEvents('in_stock', 'in_stock')).toEqual([]);
    expect(crossingEvents('low', 'low')).toEqual([]);
    expect(crossingEvents('in_stock', 'low')).toEqual(['inventory.low_stock']);
    expect(crossingEvents('low', 'out')).toEqual(['inventory.out_of_stock']);
    expect(crossingEvents('in_stock', 'out')).toEqual(['inventory.out_of_stock']);
    expect(crossingEvents('out', 'low')).toEqual([]);
    expect(crossingEvents('out', 'in_stock')).toEqual(['inventory.back_in_stock']);
    expect(crossingEvents('low', 'in_stock')).toEqual(['inventory.back_in_stock']);
  });

  it('turns a count into a delta', () => {
    expect(countDelta(7, 10)).toBe(3);
    expect(countDelta(7, 0)).toBe(-7);
  });
});
