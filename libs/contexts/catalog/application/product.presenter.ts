import { toJsonNumber } from '#platform/domain/money';
import type { DimensionUnit, ProductStatus, ProductType, WeightUnit } from '../domain/product';
import { ProductRecord, ProductVariantRecord } from '../infrastructure/product.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export interface WeightResource {
  value: number;
  unit: WeightUnit;
}

export interface DimensionsResource {
  length: number;
  width: number;
  height: number;
  unit: DimensionUnit;
}

export interface ProductVariantResource {
  id: string;
  object: 'product_variant';
  product_id: string;
  sku: string;
  name: string;
  options: Record<string, string>;
  list_price: number | null;
  cost_price: number | null;
  weight: WeightResource | null;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export interface ProductResource {
  id: string;
  object: 'product';
  sku: string;
  name: string;
  description: string | null;
  type: ProductType;
  status: ProductStatus;
  unit_of_measure: string;
  list_price: number;
  currency: string;
  cost_price: number | null;
  weight: WeightResource | null;
  dimensions: DimensionsResource | null;
  freight_insurance: boolean;
  serial_tracked: boolean;
  demand_avg_per_day: number;
  category_id: string | null;
  tag_ids: string[];
  variants: ProductVariantResource[];
  metadata: Record<string, string>;
  livemode: boolean;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A product's dimensions as the API shows them (null unless all three and the unit are set). */
export const dimensionsOf = (p: ProductRecord): ProductResource['dimensions'] =>
  p.length && p.width && p.height && p.dimensionUnit
    ? {
        length: toJsonNumber(p.length)!,
        width: toJsonNumber(p.width)!,
        height: toJsonNumber(p.height)!,
        unit: p.dimensionUnit,
      }
    : null;

export const weightOf = (r: {
  weight: ProductRecord['weight'];
  weightUnit: WeightUnit | null;
}): WeightResource | null =>
  r.weight && r.weightUnit ? { value: toJsonNumber(r.weight)!, unit: r.weightUnit } : null;

export const toVariantResource = (v: ProductVariantRecord): ProductVariantResource => ({
  id: v.id,
  object: 'product_variant',
  product_id: v.productId,
  sku: v.sku,
  name: v.name,
  options: v.options,
  list_price: toJsonNumber(v.listPrice),
  cost_price: toJsonNumber(v.costPrice),
  weight: weightOf(v),
  metadata: v.metadata,
  ...resourceTimestamps(v),
});

export const toProductResource = (
  p: ProductRecord,
  variants: ProductVariantRecord[],
  tagIds: string[],
): ProductResource => ({
  id: p.id,
  object: 'product',
  sku: p.sku,
  name: p.name,
  description: p.description,
  type: p.type,
  status: p.status,
  unit_of_measure: p.unitOfMeasure,
  list_price: toJsonNumber(p.listPrice)!,
  currency: p.currency,
  cost_price: toJsonNumber(p.costPrice),
  weight: weightOf(p),
  dimensions: dimensionsOf(p),
  freight_insurance: p.freightInsurance,
  serial_tracked: p.serialTracked,
  demand_avg_per_day: toJsonNumber(p.demandAvgPerDay)!,
  category_id: p.categoryId,
  tag_ids: tagIds,
  variants: variants.map(toVariantResource),
  metadata: p.metadata,
  livemode: p.livemode,
  archived_at: p.archivedAt ? p.archivedAt.toISOString() : null,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});
