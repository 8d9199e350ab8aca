import { money } from '#platform/domain/money';
import { applyPricingPolicies, POLICY_DEFAULTS, PricingPolicyRule, priceWithPolicy } from './pricing';

const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER_ACCOUNT = '01900000-0000-7000-8000-000000000002';
const PRODUCT = '01900000-0000-7000-8000-0000000000a1';
const CATEGORY = '01900000-0000-7000-8000-0000000000c1';

let seq = 0;
const policy = (overrides: Partial<PricingPolicyRule>): PricingPolicyRule => ({
  id: `01900000-0000-7000-8000-${String(++seq).padStart(12, '0')}`,
  kind: 'percentage_off',
  value: money(10),
  ...POLICY_DEFAULTS,
  ...overrides,
});

describe('priceWithPolicy', () => {
  it('computes percentage_off exactly, without float drift', () => {
    expect(priceWithPolicy(money('0.3'), { kind: 'percentage_off', value: money(10) }).toString()).toBe(
      '0.27',
    );
    expect(
      priceWithPolicy(money('19.99'), { kind: 'percentage_off', value: money('33.3333') }).toString(),
    ).toBe('13.3267');
  });

  it('rounds unit prices to 4 places half-even', () => {
    // 0.00125 * 0.5 = 0.000625 -> 0.0006 (half-even), 0.000375 -> 0.0004
    expect(priceWithPolicy(money('0.00125'), { kind: 'percentage_off', value: money(50) }).toString()).toBe(
      '0.0006',
    );
    expect(priceWithPolicy(money('0.00075'), { kind: 'percentage_off', value: money(50) }).toString()).toBe(
      '0.0004',
    );
  });

  it('floors amount_off at zero and never raises the list price with fixed_price', () => {
    expect(priceWithPolicy(money(5), { kind: 'amount_off', value: money(7) }).toString()).toBe('0');
    expect(priceWithPolicy(money('10.10'), { kind: 'amount_off', value: money('0.2') }).toString()).toBe(
      '9.9',
    );
    expect(priceWithPolicy(money(10), { kind: 'fixed_price', value: money(12) }).toString()).toBe('10');
    expect(priceWithPolicy(money(10), { kind: 'fixed_price', value: money('7.5') }).toString()).toBe('7.5');
  });

  it('gives zero for 100% off', () => {
    expect(priceWithPolicy(money('123.4567'), { kind: 'percentage_off', value: money(100) }).toString()).toBe(
      '0',
    );
  });
});

describe('applyPricingPolicies', () => {
  const at = new Date('2026-03-01T12:00:00.000Z');

  it('keeps the list price when no policy applies', () => {
    const line = applyPricingPolicies('12.5', 3, { accountId: ACCOUNT, productId: PRODUCT, at }, []);
    expect(line.unitPrice.toString()).toBe('12.5');
    expect(line.lineTotal.toString()).toBe('37.5');
    expect(line.unitDiscount.toString()).toBe('0');
    expect(line.appliedPolicyId).toBeNull();
  });

  it('matches every non-null scope and ignores policies scoped elsewhere', () => {
    const forOther = policy({ accountId: OTHER_ACCOUNT, value: money(50) });
    const forProduct = policy({ productId: PRODUCT, value: money(20) });
    const forCategory = policy({ productCategoryId: CATEGORY, value: money(90) });
    const line = applyPricingPolicies(100, 1, { accountId: ACCOUNT, productId: PRODUCT, at }, [
      forOther,
      forProduct,
      forCategory,
    ]);
    expect(line.appliedPolicyId).toBe(forProduct.id);
    expect(line.unitPrice.toString()).toBe('80');
    const both = policy({ accountId: ACCOUNT, productId: PRODUCT, kind: 'fixed_price', value: money(55) });
    expect(
      applyPricingPolicies(100, 1, { accountId: ACCOUNT, productId: 'x', at }, [both]).appliedPolicyId,
    ).toBeNull();
    expect(
      applyPricingPolicies(100, 1, { accountId: ACCOUNT, productId: PRODUCT, at }, [
        both,
      ]).unitPrice.toString(),
    ).toBe('55');
  });

  it('skips inactive policies and those outside their window (starts inclusive, ends exclusive)', () => {
    const inactive = policy({ active: false, value: money(50) });
    const future = policy({ startsAt: new Date('2026-03-02T00:00:00Z'), value: money(40) });
    const ended = policy({ endsAt: at, value: money(30) });
    const current = policy({ startsAt: at, endsAt: new Date('2026-04-01T00:00:00Z'), value: money(5) });
    const line = applyPricingPolicies(100, 2, { at }, [inactive, future, ended, current]);
    expect(line.appliedPolicyId).toBe(current.id);
    expect(line.lineTotal.toString()).toBe('190');
  });

  it('lets the highest priority win even when a lower one is cheaper', () => {
    const cheap = policy({ priority: 1, value: money(50) });
    const preferred = policy({ priority: 5, kind: 'amount_off', value: money(1) });
    const line = applyPricingPolicies(10, 1, { at }, [cheap, preferred]);
    expect(line.appliedPolicyId).toBe(preferred.id);
    expect(line.unitPrice.toString()).toBe('9');
  });

  it('breaks priority ties by the lowest price, then by the oldest policy', () => {
    const a = policy({ kind: 'amount_off', value: money(2) });
    const b = policy({ kind: 'percentage_off', value: money(25) });
    expect(applyPricingPolicies(10, 1, { at }, [a, b]).appliedPolicyId).toBe(b.id);
    const c = policy({ kind: 'fixed_price', value: money('7.5') });
    expect(applyPricingPolicies(10, 1, { at }, [c, b]).appliedPolicyId).toBe(b.id);
  });

  it('multiplies fractional quantities exactly', () => {
    const line = applyPricingPolicies('3.3333', '1.5', { at }, [
      policy({ kind: 'amount_off', value: money('0.0001') }),
    ]);
    expect(line.unitPrice.toString()).toBe('3.3332');
    expect(line.lineTotal.toString()).toBe('4.9998');
  });

  it('refuses negative prices and quantities', () => {
    expect(() => applyPricingPolicies(-1, 1, { at }, [])).toThrow(RangeError);
    expect(() => applyPricingPolicies(1, -1, { at }, [])).toThrow(RangeError);
  });
});
