import { allLinesShipped, assertSerialCount, remainingByLine, resolveItems, unitsIn } from './packing';

const lines = [
  { id: 'l1', productId: 'p1', quantity: 3 },
  { id: 'l2', productId: 'p1', quantity: 2 },
  { id: 'l3', productId: null, quantity: 1 },
];

describe('packing rules', () => {
  it('sums the units of each line over the package statuses asked for', () => {
    const byStatus = new Map([
      ['packing', new Map([['l1', 1]])],
      [
        'shipped',
        new Map([
          ['l1', 2],
          ['l2', 1],
        ]),
      ],
      ['void', new Map([['l1', 5]])],
    ]);
    const held = unitsIn(byStatus, ['packing', 'shipped', 'delivered']);
    expect(held.get('l1')).toBe(3);
    expect(held.get('l2')).toBe(1);
    expect(unitsIn(byStatus, ['delivered']).size).toBe(0);
  });

  it('computes what is left per line from the units already packed', () => {
    const left = remainingByLine(lines, new Map([['l1', 2]]));
    expect(left.get('l1')).toBe(1);
    expect(left.get('l2')).toBe(2);
  });

  it('checks quantities against what is left, counting earlier items of the request', () => {
    const left = remainingByLine(lines, new Map());
    expect(() =>
      resolveItems(
        [
          { order_item_id: 'l1', quantity: 2 },
          { order_item_id: 'l1', quantity: 2 },
        ],
        lines,
        left,
      ),
    ).toThrow(expect.objectContaining({ code: 'quantity_exceeds_remaining', param: 'items[1].quantity' }));
  });

  it('matches a product-only item to a line of that product with units left', () => {
    const left = remainingByLine(lines, new Map([['l1', 3]]));
    const [resolved] = resolveItems([{ product_id: 'p1', quantity: 2 }], lines, left);
    expect(resolved.orderItemId).toBe('l2');
    expect(() => resolveItems([{ product_id: 'p9', quantity: 1 }], lines, left)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'items[0].product_id' }),
    );
  });

  it('rejects a serial repeated in the request', () => {
    expect(() =>
      resolveItems(
        [
          { order_item_id: 'l1', quantity: 1, serial_numbers: ['S1'] },
          { order_item_id: 'l2', quantity: 1, serial_numbers: ['S1'] },
        ],
        lines,
        remainingByLine(lines, new Map()),
      ),
    ).toThrow(expect.objectContaining({ code: 'serial_duplicate', param: 'items[1].serial_numbers[0]' }));
  });

  it('wants one serial per unit of a serial-tracked product', () => {
    const item = { index: 0, orderItemId: 'l1', productId: 'p1', quantity: 2, serialNumbers: ['S1'] };
    expect(() => assertSerialCount(item, true)).toThrow(
      expect.objectContaining({ param: 'items[0].serial_numbers' }),
    );
    expect(() => assertSerialCount({ ...item, serialNumbers: ['S1', 'S2'] }, true)).not.toThrow();
    expect(() => assertSerialCount(item, false)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid' }),
    );
  });

  it('knows when every product line has shipped', () => {
    expect(allLinesShipped(lines, new Map([['l1', 3]]))).toBe(false);
    expect(
      allLinesShipped(
        lines,
        new Map([
          ['l1', 3],
          ['l2', 2],
        ]),
      ),
    ).toBe(true);
  });
});
