import Decimal from 'decimal.js';
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

/** Archived products are read-only until restored: updates, variants and listings wait for restore. */
export function assertProductEditable(product: { id: string; status: ProductStatus }): void {
  if (product.status !== 'active') {
    throw new CatalogError('invalid_state', {
      hint: `Product '${product.id}' is ${product.status}; restore it (POST /v1/products/${product.id}/restore) before changing it.`,
    });
  }
}

export function assertCanArchive(product: { id: string; status: ProductStatus }): void {
  if (product.status === 'archived') {
    throw new CatalogError('invalid_state', {
      hint: `Product '${product.id}' is already archived; only active products can be deleted.`,
    });
  }
}

export function assertCanRestore(product: { id: string; status: ProductStatus }): void {
  if (product.status !== 'archived') {
    throw new CatalogError('invalid_state', {
      hint: `Product '${product.id}' is ${product.status}; only archived products can be restored.`,
    });
  }
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
