import fc from 'fast-check';
import { MOVEMENT_TYPES } from '#contexts/inventory';
import { DemandMovement, demandBasis, demandKind, sumDemand, totalDemand } from './demand';

const day = '2026-11-20';
const sale = (quantity: number, extra: Partial<DemandMovement> = {}): DemandMovement => ({
  productId: 'p1',
  locationId: 'l1',
  type: 'fulfillment',
  quantity,
  day,
  documentType: 'sales_order',
  lineRole: 'line',
  ...extra,
});
const draw = (quantity: number, buildStatus: string, productId = 'p1'): DemandMovement => ({
  productId,
  locationId: 'l1',
  type: 'build_consumption',
  quantity,
  day,
  buildStatus,
});
const demandOf = (rows: DemandMovement[], productId = 'p1') =>
  totalDemand(sumDemand(rows.filter((r) => r.productId === productId)));

describe('demand (changelog 2026-09-22)', () => {
  it('counts a fulfilled sales line; an unshipped line (no fulfillment row) does not count', () => {
    // The order for 5 is confirmed: only the 3 units shipped so far left the shelf.
    const history: DemandMovement[] = [
      { ...sale(10), type: 'receipt', documentType: null, lineRole: null },
      sale(-3),
    ];
    expect(demandOf(history)).toBe(3);
    expect(demandOf([{ ...sale(10), type: 'receipt', documentType: null, lineRole: null }])).toBe(0);
    expect(demandKind(sale(-2, { documentType: 'invoice' }))).toBe('sale');
  });

  it('counts a posted build-consumption draw; a draft build draws nothing', () => {
    expect(demandOf([draw(-4, 'posted')])).toBe(4);
    expect(demandOf([draw(-4, 'draft')])).toBe(0);
    expect(demandKind(draw(-4, 'voided'))).toBeNull();
  });

  it('counts a kit shipped from stock as the kit, and a kit assembled to order as its components only', () => {
    // From stock: the kit line ships the kit product, built earlier; its own decrement counts.
    const fromStock = [sale(-2, { productId: 'kit', lineRole: 'kit_parent', assembledToOrder: false })];
    expect(demandOf(fromStock, 'kit')).toBe(2);
    // Assembled to order through a build: the build draws the components (counted), and the
    // kit that passes through to the customer is not counted again.
    const built = [
      draw(-2, 'posted', 'c1'),
      draw(-6, 'posted', 'c2'),
      { ...sale(2, { productId: 'kit' }), type: 'build_output', documentType: null, lineRole: null },
      sale(-2, { productId: 'kit', lineRole: 'kit_parent', assembledToOrder: true }),
    ];
    expect(demandOf(built, 'kit')).toBe(0);
    expect(demandOf(built, 'c1')).toBe(2);
    expect(demandOf(built, 'c2')).toBe(6);
    // Assembled to order at packing: the component lines ship themselves.
    const packed = [
      sale(-2, { productId: 'c1', lineRole: 'kit_component' }),
      sale(-6, { productId: 'c2', lineRole: 'kit_component' }),
    ];
    expect(demandOf(packed, 'c1') + demandOf(packed, 'c2')).toBe(8);
  });

  it('excludes quotes, purchase orders, returns and other non-sales movements', () => {
    const history: DemandMovement[] = [
      sale(-1, { documentType: 'quote' }),
      sale(-1, { documentType: 'purchase_order' }),
      sale(-1, { documentType: 'return' }),
      sale(-1, { documentType: null }),
      { ...sale(5), type: 'return', documentType: 'return' },
      { ...sale(-3), type: 'adjustment', documentType: null },
      { ...sale(-3), type: 'transfer_out', documentType: null },
      { ...sale(-3), type: 'cycle_count', documentType: null },
      { ...sale(7), type: 'build_output', documentType: null },
    ];
    expect(demandOf(history)).toBe(0);
  });

  it('reaches each demand_basis value', () => {
    expect(demandBasis(sumDemand([sale(-1)]))).toBe('sales');
    expect(demandBasis(sumDemand([draw(-1, 'posted')]))).toBe('builds');
    expect(demandBasis(sumDemand([sale(-1), draw(-1, 'posted')]))).toBe('sales_and_builds');
    expect(demandBasis(sumDemand([sale(-1, { lineRole: 'kit_component' })]))).toBe('consumption');
    expect(demandBasis(sumDemand([sale(-1, { lineRole: 'kit_component' }), draw(-1, 'posted')]))).toBe(
      'sales_and_builds',
    );
    expect(demandBasis(sumDemand([sale(-1, { lineRole: 'kit_component' }), sale(-1)]))).toBe('sales');
    expect(demandBasis(sumDemand([]))).toBe('sales');
  });

  const movement = fc.record({
    productId: fc.constantFrom('p1', 'p2'),
    locationId: fc.constantFrom('l1', 'l2'),
    type: fc.constantFrom(...MOVEMENT_TYPES),
    quantity: fc.integer({ min: -50, max: 50 }),
    day: fc.constant(day),
    documentType: fc.constantFrom(null, 'quote', 'sales_order', 'invoice', 'return', 'purchase_order'),
    lineRole: fc.constantFrom(null, 'line', 'kit_parent', 'kit_component'),
    assembledToOrder: fc.boolean(),
    buildStatus: fc.constantFrom(null, 'draft', 'posted', 'voided'),
  }) as fc.Arbitrary<DemandMovement>;

  it('equals the sum of qualifying decrements for any history', () => {
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 60 }), (history) => {
        const qualifying = history.filter(
          (m) =>
            m.quantity < 0 &&
            ((m.type === 'fulfillment' &&
              (m.documentType === 'sales_order' || m.documentType === 'invoice') &&
              !(m.lineRole === 'kit_parent' && m.assembledToOrder)) ||
              (m.type === 'build_consumption' && m.buildStatus === 'posted')),
        );
        const expected = qualifying.reduce((acc, m) => acc - m.quantity, 0);
        expect(totalDemand(sumDemand(history))).toBe(expected);
        // Per product the sums add up to the whole: each decrement counted once.
        expect(demandOf(history, 'p1') + demandOf(history, 'p2')).toBe(expected);
      }),
    );
  });
});
