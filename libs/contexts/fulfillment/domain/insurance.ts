import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';

/** The fee estimate shown before a rate is chosen: about 1.5 % of the declared value. */
export const FEE_ESTIMATE_RATE = money('0.015');

export type InsuranceSource = 'product_toggle' | 'entity_threshold' | 'manual_override';

export interface InsuredItem {
  id: string;
  quantity: number;
  /** The order line's net unit price (after discounts, before tax). */
  unitPrice: Decimal;
  freightInsurance: boolean;
}

export interface InsuranceInput {
  items: InsuredItem[];
  override: Decimal | null;
  threshold: Decimal | null;
  /** The carrier once chosen (lower case). */
  carrier: string | null;
  /** The amount insured by a bought label; null before any purchase. */
  boughtAmount: Decimal | null;
  currency?: string;
}

export interface InsuranceSummary {
  active: boolean;
  bought: boolean;
  amount: Decimal;
  currency: string;
  fee_estimate: Decimal;
  provider: string | null;
  covered_items: string[];
  covered_item_count: number;
  source: InsuranceSource;
}

const valueOf = (items: InsuredItem[]) =>
  items.reduce((sum, i) => sum.plus(i.unitPrice.times(i.quantity)), money(0));

/**
 * The package's insurance summary. Precedence: `manual_override` (insurance_amount_override wins,
 * every item covered), then `product_toggle` (items whose product has freight_insurance, at
 * their value), then `entity_threshold` (the whole package once its value reaches the entity's
 * threshold; below it the summary is inactive with amount 0). Null when no item opts in and
 * neither an override nor a threshold exists. After a purchase `bought` is true and `amount`
 * is what the label insured.
 */
export function insuranceSummary(input: InsuranceInput): InsuranceSummary | null {
  const currency = input.currency ?? 'USD';
  const provider = input.carrier ? input.carrier.toUpperCase() : null;
  let source: InsuranceSource;
  let covered: InsuredItem[];
  let amount: Decimal;
  let active = true;
  const toggled = input.items.filter((i) => i.freightInsurance);
  if (input.override !== null) {
    source = 'manual_override';
    covered = input.items;
    amount = input.override;
  } else if (toggled.length > 0) {
    source = 'product_toggle';
    covered = toggled;
    amount = valueOf(toggled);
  } else if (input.threshold !== null) {
    source = 'entity_threshold';
    const value = valueOf(input.items);
    active = input.items.length > 0 && value.gt(0) && value.gte(input.threshold);
    covered = active ? input.items : [];
    amount = active ? value : money(0);
  } else {
    return null;
  }
  const bought = input.boughtAmount !== null;
  if (bought) amount = input.boughtAmount!;
  if (amount.lte(0) && source !== 'entity_threshold') active = false;
  return {
    active,
    bought,
    amount: amount.toDecimalPlaces(2),
    currency,
    fee_estimate: amount.times(FEE_ESTIMATE_RATE).toDecimalPlaces(2),
    provider,
    covered_items: covered.map((i) => i.id),
    covered_item_count: covered.length,
    source,
  };
}

/** The amount a label purchase insures: the summary's amount when it is active, else nothing. */
export const insurableAmount = (summary: InsuranceSummary | null): Decimal | null =>
  summary && summary.active && summary.amount.gt(0) ? summary.amount : null;
