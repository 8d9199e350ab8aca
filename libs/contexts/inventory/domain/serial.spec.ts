import { InventoryError } from './inventory-error';
import {
  assertSerialsForQuantity,
  canTransition,
  SERIAL_STATUSES,
  SerialAction,
  SerialStatus,
  serialTransition,
} from './serial';

const allowed: [SerialAction, SerialStatus, SerialStatus][] = [
  ['allocate', 'available', 'allocated'],
  ['deallocate', 'allocated', 'available'],
  ['sell', 'allocated', 'sold'],
  ['return', 'sold', 'returned'],
  ['restock', 'returned', 'available'],
  ['restock', 'damaged', 'available'],
  ['restock', 'quarantined', 'available'],
  ['damage', 'returned', 'damaged'],
  ['quarantine', 'returned', 'quarantined'],
  ['retire', 'available', 'end_of_life'],
  ['retire', 'allocated', 'end_of_life'],
  ['retire', 'returned', 'end_of_life'],
  ['retire', 'damaged', 'end_of_life'],
  ['retire', 'quarantined', 'end_of_life'],
  ['consume', 'available', 'consumed_in_manufacturing'],
  ['disassemble', 'available', 'disassembled'],
  ['disassemble', 'returned', 'disassembled'],
];

describe('serial state machine', () => {
  it.each(allowed)('%s: %s -> %s', (action, from, to) => {
    expect(serialTransition(action, { serialNumber: 'SN', status: from })).toBe(to);
  });

  it('refuses every other transition with 409 invalid_state naming the current status', () => {
    const actions = [...new Set(allowed.map(([a]) => a))];
    const refusals = actions.flatMap((action) =>
      SERIAL_STATUSES.filter((status) => !allowed.some(([a, from]) => a === action && from === status)).map(
        (status) => ({ action, status }),
      ),
    );
    expect(refusals).toHaveLength(actions.length * SERIAL_STATUSES.length - allowed.length);
    for (const { action, status } of refusals) {
      const refused = () => serialTransition(action, { serialNumber: 'SN-1', status });
      expect(refused).toThrow(InventoryError);
      expect(refused).toThrow(
        expect.objectContaining({ code: 'invalid_state', hint: expect.stringContaining(`'${status}'`) }),
      );
      expect(canTransition(action, status)).toBe(false);
    }
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
    const duplicate = () => assertSerialsForQuantity(['a', 'a'], 2, 'serial_numbers', 'p');
    expect(duplicate).toThrow(InventoryError);
    expect(duplicate).toThrow(
      expect.objectContaining({ code: 'serial_duplicate', param: 'serial_numbers[1]' }),
    );
  });
});
