import { money } from '#platform/domain/money';
import { insurableAmount, insuranceSummary, InsuredItem } from './insurance';

const item = (id: string, quantity: number, price: string, freightInsurance: boolean): InsuredItem => ({
  id,
  quantity,
  unitPrice: money(price),
  freightInsurance,
});

describe('insurance summary', () => {
  const plain = [item('a', 2, '10', false), item('b', 1, '30', false)];

  it('is null without a toggle, an override or a threshold', () => {
    expect(
      insuranceSummary({ items: plain, override: null, threshold: null, carrier: null, boughtAmount: null }),
    ).toBeNull();
  });

  it('covers toggled items at their value (product_toggle) with a 1.5 % fee estimate', () => {
    const s = insuranceSummary({
      items: [item('a', 2, '10', false), item('b', 3, '100', true)],
      override: null,
      threshold: null,
      carrier: 'usps',
      boughtAmount: null,
    })!;
    expect(s).toMatchObject({ active: true, bought: false, source: 'product_toggle', provider: 'USPS' });
    expect(s.amount.toFixed(2)).toBe('300.00');
    expect(s.fee_estimate.toFixed(2)).toBe('4.50');
    expect(s.covered_items).toEqual(['b']);
    expect(s.covered_item_count).toBe(1);
  });

  it('lets the manual override win', () => {
    const s = insuranceSummary({
      items: [item('b', 3, '100', true)],
      override: money('50'),
      threshold: money('10'),
      carrier: null,
      boughtAmount: null,
    })!;
    expect(s.source).toBe('manual_override');
    expect(s.amount.toFixed(2)).toBe('50.00');
    expect(s.provider).toBeNull();
  });

  it('insures the whole package once its value reaches the entity threshold', () => {
    const reached = insuranceSummary({
      items: plain,
      override: null,
      threshold: money('50'),
      carrier: null,
      boughtAmount: null,
    })!;
    expect(reached).toMatchObject({ active: true, source: 'entity_threshold', covered_item_count: 2 });
    expect(reached.amount.toFixed(2)).toBe('50.00');
    const below = insuranceSummary({
      items: plain,
      override: null,
      threshold: money('50.01'),
      carrier: null,
      boughtAmount: null,
    })!;
    expect(below).toMatchObject({ active: false, source: 'entity_threshold', covered_item_count: 0 });
    expect(insurableAmount(below)).toBeNull();
  });

  it('shows the bought amount after a purchase', () => {
    const s = insuranceSummary({
      items: [item('b', 1, '100', true)],
      override: null,
      threshold: null,
      carrier: 'ups',
      boughtAmount: money('100'),
    })!;
    expect(s).toMatchObject({ bought: true, provider: 'UPS' });
    expect(s.amount.toFixed(2)).toBe('100.00');
  });
});
