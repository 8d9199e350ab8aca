import Decimal from 'decimal.js';
import { transition, Transitions } from '#platform/domain/state-machine';
import { CatalogError } from './catalog-error';

export const PRODUCT_TYPES = ['standard', 'kit', 'service', 'box'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

export const DIMENSION_UNITS = ['mm', 'cm', 'm', 'in', 'ft'] as const;
export type DimensionUnit = (typeof DIMENSION_UNITS)[number];

/** SKUs: 1..64 visible characters without spaces, compared exactly (case-sensitive, as ERPs store them). */
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/#+]{0,63}$/;
export const UNIT_OF_MEASURE_PATTERN = /^[A-Za-z0-9_.-]{1,20}$/;
export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 5000;
/** numeric(19,4) holds 15 integer digits. */
export const AMOUNT_MAX = 999_999_999_999_999;

/** The moves of a product: changes (updates, variants, listings) while active, archive and restore. */
export type ProductAction = 'edit' | 'archive' | 'restore';

/**
 * The product state machine (an archived product is read-only until restored):
 *   active --edit--> active
 *   active --archive--> archived   (DELETE /v1/products/{id}, a soft delete)
 *   archived --restore--> active
 */
const PRODUCT_TRANSITIONS: Transitions<ProductStatus, ProductAction> = {
  active: { edit: 'active', archive: 'archived' },
  archived: { restore: 'active' },
};

/** The status `action` leads the product to; 409 invalid_state where the table does not allow it. */
export function productTransition(
  action: ProductAction,
  product: { id: string; status: string },
): ProductStatus {
  return transition(PRODUCT_TRANSITIONS, product.status, action, (current, allowed) => {
    const hint = {
      edit: `Product '${product.id}' is ${current}; restore it (POST /v1/products/${product.id}/restore) before changing it.`,
      archive: `Product '${product.id}' is already ${current}; only ${allowed.join(' or ')} products can be deleted.`,
      restore: `Product '${product.id}' is ${current}; only ${allowed.join(' or ')} products can be restored.`,
    }[action];
    return new CatalogError('invalid_state', { hint });
  });
}

/** The 409 for a SKU already held by a product or variant of the same entity and mode. */
export const duplicateSku = (sku: string, param = 'sku') =>
  new CatalogError('duplicate_sku', {
    param,
    hint: `SKU '${sku}' is already used by another product or variant of this entity in this mode.`,
  });

/**
 * The products whose recorded average daily demand differs from the one computed for them, in the
 * order given, with the new value: compared as decimals (0.5 and 0.5000 are the same); a product
 * without a computed value is left as it is.
 */
export function changedDemandAverages<P extends { id: string; demandAvgPerDay: Decimal }>(
  products: readonly P[],
  averages: ReadonlyMap<string, Decimal>,
): { product: P; next: Decimal }[] {
  return products.flatMap((product) => {
    const next = averages.get(product.id);
    return next === undefined || product.demandAvgPerDay.equals(next) ? [] : [{ product, next }];
  });
}
