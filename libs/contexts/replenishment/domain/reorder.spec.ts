import Decimal from 'decimal.js';
import { coverThrough, netSuggestedQty, reorderPoint } from './reorder';

describe('reorder point', () => {
  it('keeps a manual reorder point as set', () => {
    const rp = reorderPoint({ manual: 12, leadTimeDays: 10, dailyDemand: new Decimal(3), safetyStock: 4 });
    expect(rp).toMatchObject({ value: 12, source: 'manual' });
  });

  it('computes ceil(lead time × daily demand) + safety stock', () => {
    const rp = reorderPoint({
      manual: null,
      leadTimeDays: 7,
      dailyDemand: new Decimal('1.5'),
      safetyStock: 4,
    });
    expect(rp).toMatchObject({ value: 15, source: 'computed', leadTimeDays: 7, safetyStock: 4 });
  });
});

describe('cover_through', () => {
  it('is the business day plus the whole days the available stock lasts', () => {
    expect(coverThrough(10, new Decimal('3'), '2026-11-23')).toBe('2026-11-26');
    expect(coverThrough(0, new Decimal('3'), '2026-11-23')).toBe('2026-11-23');
    expect(coverThrough(-4, new Decimal('3'), '2026-11-23')).toBe('2026-11-23');
    expect(coverThrough(10, new Decimal(0), '2026-11-23')).toBeNull();
  });
});

describe('net_suggested_qty', () => {
  const base = {
    available: 4,
    onOrder: 0,
    reorderPoint: 10,
    dailyDemand: new Decimal(2),
    leadTimeDays: 5,
    minOrderQuantity: 0,
    orderMultiple: 1,
  };

  it('orders up to reorder point plus lead-time demand, net of available and on order', () => {
    // target 10 + 10 = 20; projected 4 -> 16
    expect(netSuggestedQty(base)).toBe(16);
    expect(netSuggestedQty({ ...base, onOrder: 6 })).toBe(10);
  });

  it('rounds up to order_multiple', () => {
    expect(netSuggestedQty({ ...base, orderMultiple: 12 })).toBe(24);
  });

  it('orders at least min_order_quantity, itself rounded to the multiple', () => {
    expect(netSuggestedQty({ ...base, minOrderQuantity: 50 })).toBe(50);
    expect(netSuggestedQty({ ...base, minOrderQuantity: 50, orderMultiple: 12 })).toBe(60);
  });

  it('is 0 when the projected stock is above the reorder point', () => {
    expect(netSuggestedQty({ ...base, available: 11, minOrderQuantity: 50 })).toBe(0);
    expect(netSuggestedQty({ ...base, available: 5, onOrder: 6 })).toBe(0);
  });
});
