import Decimal from 'decimal.js';
import { Money, money } from '#platform/domain/money';

/** Pricing policies: rules that change the unit price of an order line. */
export const PRICING_POLICY_KINDS = ['percentage_off', 'amount_off', 'fixed_price'] as const;
export type PricingPolicyKind = (typeof PRICING_POLICY_KINDS)[number];

export interface PricingPolicyRule {
  id: string;
  kind: PricingPolicyKind;
  value: Decimal;
  accountId: string | null;
  productId: string | null;
  productCategoryId: string | null;
  priority: number;
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** A new policy's settings where the request names none: for everyone, every product, at once, forever. */
export const POLICY_DEFAULTS = {
  accountId: null,
  productId: null,
  productCategoryId: null,
  priority: 0,
  active: true,
  startsAt: null,
  endsAt: null,
} as const satisfies Partial<PricingPolicyRule>;

/** What the line is priced for. */
export interface PricingContext {
  accountId?: string | null;
  productId?: string | null;
  productCategoryId?: string | null;
  /** The pricing moment (order creation); defaults to now. */
  at?: Date;
}

export interface PricedLine {
  listPrice: Decimal;
  unitPrice: Decimal;
  /** listPrice - unitPrice, per unit (never negative: a fixed price above the list price does not raise it). */
  unitDiscount: Decimal;
  quantity: Decimal;
  lineTotal: Decimal;
  /** The policy that set the price, or null when none applies. */
  appliedPolicyId: string | null;
}

/** Unit prices carry 4 decimal places, like every money column. */
const UNIT_PLACES = 4;

/** True when the policy is active at `at` and each of its non-null scopes matches the context. */
export function policyApplies(policy: PricingPolicyRule, context: PricingContext, at: Date): boolean {
  if (!policy.active) return false;
  if (policy.startsAt && at < policy.startsAt) return false;
  if (policy.endsAt && at >= policy.endsAt) return false;
  const matches = (scope: string | null, value: string | null | undefined) =>
    scope === null || scope === value;
  return (
    matches(policy.accountId, context.accountId) &&
    matches(policy.productId, context.productId) &&
    matches(policy.productCategoryId, context.productCategoryId)
  );
}

/** The unit price one policy gives, floored at zero and never above the list price. */
export function priceWithPolicy(
  listPrice: Decimal,
  policy: Pick<PricingPolicyRule, 'kind' | 'value'>,
): Decimal {
  let price: Decimal;
  switch (policy.kind) {
    case 'percentage_off':
      price = listPrice.mul(money(100).minus(policy.value)).div(100);
      break;
    case 'amount_off':
      price = listPrice.minus(policy.value);
      break;
    case 'fixed_price':
      price = policy.value;
      break;
  }
  price = Money.max(0, Money.min(listPrice, price));
  return price.toDecimalPlaces(UNIT_PLACES, Decimal.ROUND_HALF_EVEN);
}

/**
 * Prices one line. Exactly one policy applies: among the applicable ones the highest
 * `priority` wins; on equal priority the lowest resulting price (the customer's best deal);
 * then the oldest policy (smallest UUIDv7). Policies do not stack.
 */
export function applyPricingPolicies(
  listPrice: Decimal.Value,
  quantity: Decimal.Value,
  context: PricingContext,
  policies: readonly PricingPolicyRule[],
): PricedLine {
  const list = money(listPrice);
  const qty = money(quantity);
  if (list.isNegative() || !list.isFinite()) throw new RangeError('listPrice must be a finite amount >= 0');
  if (qty.isNegative() || !qty.isFinite()) throw new RangeError('quantity must be a finite amount >= 0');
  const at = context.at ?? new Date();
  let best: { policy: PricingPolicyRule; price: Decimal } | null = null;
  for (const policy of policies) {
    if (!policyApplies(policy, context, at)) continue;
    const price = priceWithPolicy(list, policy);
    if (
      best === null ||
      policy.priority > best.policy.priority ||
      (policy.priority === best.policy.priority &&
        (price.lt(best.price) || (price.eq(best.price) && policy.id < best.policy.id)))
    ) {
      best = { policy, price };
    }
  }
  const unitPrice = best ? best.price : list.toDecimalPlaces(UNIT_PLACES, Decimal.ROUND_HALF_EVEN);
  return {
    listPrice: list,
    unitPrice,
    unitDiscount: list.minus(unitPrice),
    quantity: qty,
    lineTotal: unitPrice.mul(qty).toDecimalPlaces(UNIT_PLACES, Decimal.ROUND_HALF_EVEN),
    appliedPolicyId: best ? best.policy.id : null,
  };
}
