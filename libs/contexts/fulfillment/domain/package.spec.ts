import { packageAllowedFrom, canMove, PACKAGE_STATUSES, PackageAction, packageTransition } from './package';

const ACTIONS: PackageAction[] = ['edit', 'pack', 'buy_label', 'ship', 'deliver', 'void', 'return'];

/** Every allowed move, written out by hand: [from, action, to]. */
const ALLOWED: [string, PackageAction, string][] = [
  ['packing', 'edit', 'packing'],
  ['packing', 'pack', 'packed'],
  ['packing', 'buy_label', 'labeled'],
  ['packing', 'ship', 'shipped'],
  ['packing', 'void', 'void'],
  ['packed', 'edit', 'packed'],
  ['packed', 'buy_label', 'labeled'],
  ['packed', 'ship', 'shipped'],
  ['packed', 'void', 'void'],
  ['labeled', 'ship', 'shipped'],
  ['labeled', 'void', 'void'],
  ['shipped', 'deliver', 'delivered'],
  ['shipped', 'return', 'returned'],
  ['delivered', 'return', 'returned'],
];

describe('package state machine', () => {
  it.each(ALLOWED)('%s --%s--> %s', (from, action, to) => {
    expect(packageTransition(action, from as never, 'p1')).toBe(to);
  });

  it('refuses every other move with 409 invalid_state naming the status', () => {
    for (const status of PACKAGE_STATUSES)
      for (const action of ACTIONS) {
        if (ALLOWED.some(([f, a]) => f === status && a === action)) continue;
        expect(canMove(action, status)).toBe(false);
        expect(() => packageTransition(action, status, 'p1')).toThrow(
          expect.objectContaining({ code: 'invalid_state', hint: expect.stringContaining(`'${status}'`) }),
        );
      }
  });

  it('words the refusal with the statuses the action starts from', () => {
    expect(() => packageTransition('deliver', 'packing', 'p1')).toThrow(
      expect.objectContaining({
        hint: "Package 'p1' has status 'packing'; it can be delivered only when 'shipped'.",
      }),
    );
    expect(() => packageTransition('void', 'shipped')).toThrow(
      expect.objectContaining({
        hint: "Package has status 'shipped'; it can be voided only when 'packing' or 'packed' or 'labeled'.",
      }),
    );
  });

  it('ships without a label from packing or packed', () => {
    expect(packageAllowedFrom('ship')).toEqual(['packing', 'packed', 'labeled']);
    expect(packageAllowedFrom('edit')).toEqual(['packing', 'packed']);
  });
});
