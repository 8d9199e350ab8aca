import { toJsonNumber } from '#platform/domain/money';
import { ProductVendorRecord } from '../infrastructure/product-vendor.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toProductVendorResource = (v: ProductVendorRecord) => ({
  id: v.id,
  object: 'product_vendor' as const,
  product_id: v.productId,
  vendor_account_id: v.vendorAccountId,
  vendor_sku: v.vendorSku,
  unit_cost: toJsonNumber(v.unitCost),
  currency: v.currency,
  lead_time_days: v.leadTimeDays,
  min_order_quantity: v.minOrderQuantity,
  order_multiple: v.orderMultiple,
  is_preferred: v.isPreferred,
  ...resourceTimestamps(v),
});
