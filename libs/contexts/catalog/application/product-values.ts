/** What products and their variants share: SKU claims (one uniqueness for both) and their weight. */

import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { duplicateSku, WeightUnit } from '../domain/product';
import { ProductRepository } from '../infrastructure/product.repository';

export interface WeightInput {
  value: number;
  unit: WeightUnit;
}

/** A SKU a write takes: `param` names its field in errors, `except` the record that already holds it. */
export interface SkuClaim {
  sku: string;
  param: string;
  except?: string;
}

export const decimalOrNull = (value: number | null | undefined): Decimal | null =>
  value === null || value === undefined ? null : money(value);

export function applyWeight(
  target: { weight: Decimal | null; weightUnit: WeightUnit | null },
  weight: WeightInput | null,
): void {
  target.weight = weight ? money(weight.value) : null;
  target.weightUnit = weight ? weight.unit : null;
}

/**
 * Locks every SKU (sorted, so concurrent writers never deadlock) and refuses one already taken, by a
 * product or a variant, or repeated among the claims. Runs inside the caller's transaction.
 */
export async function claimSkus(products: ProductRepository, claims: readonly SkuClaim[]): Promise<void> {
  const seen = new Map<string, string>();
  for (const claim of claims) {
    if (seen.has(claim.sku)) throw duplicateSku(claim.sku, claim.param);
    seen.set(claim.sku, claim.param);
  }
  for (const claim of [...claims].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))) {
    await products.lockSku(claim.sku);
  }
  for (const claim of claims) {
    if (await products.skuTaken(claim.sku, claim.except)) throw duplicateSku(claim.sku, claim.param);
  }
}
