import Decimal from 'decimal.js';
import { planReorder } from './reorder-row';

describe('reorder report row', () => {
  const vendor = {
    productVendorId: 'pv',
    vendorAccountId: 'acc',
    leadTimeDays: 10,
    minOrderQuantity: 20,
    orderMultiple: 12,
  };

  /** The worked example's product (2.5 a day, the vendor above) at a given balance. */
  const planWorkedExample = (balance: Parameters<typeof planReorder>[0]['balance']) =>
    planReorder({
      balance,
      dailyDemand: new Decimal('2.5'),
      demandBasis: 'sales',
      vendor,
      businessDay: '2026-11-23',
    });

  it('computes the reorder point from lead time and demand when none is set (the worked example)', () => {
    const plan = planWorkedExample({
      onHand: 40,
      allocated: 10,
      onOrder: 12,
      reorderPoint: null,
      safetyStock: 5,
    });
    // reorder point = ceil(10 × 2.5) + 5 = 30; available = 30; projected = 42 > 30 -> nothing to order
    expect(plan).toMatchObject({
      available: 30,
      reorderPoint: 30,
      reorderPointSource: 'computed',
      netSuggestedQty: 0,
      coverThrough: '2026-12-05',
      belowReorderPoint: false,
    });
    const low = planWorkedExample({
      onHand: 20,
      allocated: 10,
      onOrder: 0,
      reorderPoint: null,
      safetyStock: 5,
    });
    // target = 30 + 25 = 55; projected 10 -> 45, rounded up to 12s -> 48
    expect(low).toMatchObject({
      available: 10,
      reorderPoint: 30,
      netSuggestedQty: 48,
      coverThrough: '2026-11-27',
    });
    expect(low.belowReorderPoint).toBe(true);
  });

  it('keeps a manual reorder point and orders without a vendor in single units', () => {
    const plan = planReorder({
      balance: { onHand: 3, allocated: 0, onOrder: 0, reorderPoint: 8, safetyStock: null },
      dailyDemand: new Decimal(0),
      demandBasis: 'sales',
      vendor: null,
      businessDay: '2026-11-23',
    });
    expect(plan).toMatchObject({
      reorderPoint: 8,
      reorderPointSource: 'manual',
      leadTimeDays: 0,
      netSuggestedQty: 5,
      coverThrough: null,
    });
  });
});
