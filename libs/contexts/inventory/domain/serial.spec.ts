import { InventoryError } from './inventory-error';
import {
  assertSerialsForQuantity,
  canTransition,
  SERIAL_STATUSES,
  SerialAction,
  SerialStatus,
  transition,
} from './serial';

const allowed: [SerialAction, SerialStatus, SerialStatus][] = [
  ['allocate', 'available', 'allocated'],
  ['deallocate', 'allocated', 'available'],
  ['sell', 'allocated', 'sold'],
  ['return', 'sold', 'returned'],
  ['restock', 'returned', 'available'],
  ['damage', 'returned', 'damaged'],
  ['quarantine', 'returned', 'quarantined'],
  ['retire', 'available', 'end_of_life'],
  ['retire', 'allocated', 'end_of_life'],
  ['retire', 'returned', 'end_of_life'],
  ['retire', 'damaged', 'end_of_life'],
  ['retire', 'quarantined', 'end_of_life'],
  ['consume', 'available', 'consumed_in_manufacturing'],
  ['disassemble', 'available', 'disassembled'],
];

describe('serial state machine', () => {
  it.each(allowed)('%s: %s -> %s', (action, from, to) => {
    expect(transition(action, { serialNumber: 'SN', status: from })).toBe(to);
  });

  it('refuses every other transition with 409 invalid_state naming the current status', () => {
    const actions = [...new Set(allowed.map(([a]) => a)), 'restock', 'disassemble'] as SerialAction[];
    let refused = 0;
    for (const action of actions) {
      for (const status of SERIAL_STATUSES) {
        if (canTransition(action, status)) continue;
        try {
          transition(action, { serialNumber: 'SN-1', status });
          throw new Error(`${action} from ${status} was allowed`);
        } catch (e) {
          expect(e).toBeInstanceOf(InventoryError);
          expect((e as InventoryError).code).toBe('invalid_state');
          expect((e as InventoryError).hint).toContain(`'${status}'`);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(50);
  });

  it('never leaves the terminal statuses', () => {
    for (const status of [
      'sold',
      'end_of_life',
      'consumed_in_manufacturing',
      'disassembled',
    ] as SerialStatus[]) {
      for (const action of ['allocate', 'restock', 'consume', 'disassemble'] as SerialAction[]) {
        expect(canTransition(action, status)).toBe(false);
      }
    }
  });

  it('wants one distinct serial per unit', () => {
    expect(assertSerialsForQuantity(['a', 'b'], 2, 'serial_numbers', 'p')).toEqual(['a', 'b']);
    expect(assertSerialsForQuantity(['a'], -1, 'serial_numbers', 'p')).toEqual(['a']);
    expect(() => assertSerialsForQuantity(['a'], 2, 'serial_numbers', 'p')).toThrow(InventoryError);
    try {
      assertSerialsForQuantity(['a', 'a'], 2, 'serial_numbers', 'p');
    } catch (e) {
      expect((e as InventoryError).code).toBe('serial_duplicate');
      expect((e as InventoryError).param).toBe('serial_numbers[1]');
    }
  });
});
