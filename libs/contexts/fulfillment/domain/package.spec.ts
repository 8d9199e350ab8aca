import { allowedFrom, assertTransition, canMove, nextStatus, PACKAGE_STATUSES } from './package';

describe('package state machine', () => {
  it('moves packing → packed → labeled → shipped → delivered → returned', () => {
    expect(canMove('pack', 'packing')).toBe(true);
    expect(nextStatus('pack')).toBe('packed');
    expect(canMove('buy_label', 'packed')).toBe(true);
    expect(nextStatus('buy_label')).toBe('labeled');
    expect(canMove('ship', 'labeled')).toBe(true);
    expect(nextStatus('ship')).toBe('shipped');
    expect(canMove('deliver', 'shipped')).toBe(true);
    expect(canMove('return', 'delivered')).toBe(true);
    expect(nextStatus('return')).toBe('returned');
  });

  it('ships without a label from packing or packed', () => {
    expect(allowedFrom('ship')).toEqual(['packing', 'packed', 'labeled']);
  });

  it('voids only before shipping', () => {
    for (const s of PACKAGE_STATUSES)
      expect(canMove('void', s)).toBe(['packing', 'packed', 'labeled'].includes(s));
  });

  it('edits only while packing or packed', () => {
    expect(PACKAGE_STATUSES.filter((s) => canMove('edit', s))).toEqual(['packing', 'packed']);
  });

  it('answers 409 invalid_state naming the status', () => {
    expect(() => assertTransition('deliver', 'packing', 'p1')).toThrow(
      expect.objectContaining({ code: 'invalid_state', hint: expect.stringContaining("'packing'") }),
    );
    expect(() => assertTransition('pack', 'void')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
    expect(() => assertTransition('buy_label', 'shipped')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
  });
});
