import { toJsonNumber } from '#platform/domain/money';
import { InsuranceSummary } from '../domain/insurance';
import { PackageItemRecord, PackageLabelRecord, PackageRecord } from '../infrastructure/fulfillment.entities';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

const num = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 4);

export const toPackageItemResource = (i: PackageItemRecord) => ({
  id: i.id,
  object: 'package_item' as const,
  package_id: i.packageId,
  order_item_id: i.orderItemId,
  product_id: i.productId,
  quantity: i.quantity,
  serial_numbers: i.serialNumbers,
  unit_price: num(i.unitPrice) as number,
  unit_cost: num(i.unitCost),
  returned_quantity: i.returnedQuantity,
  returned_serial_numbers: i.returnedSerials,
});

export const toLabelResource = (l: PackageLabelRecord) => ({
  object: 'shipment_label' as const,
  provider: l.provider,
  carrier: l.carrier,
  service_level: l.serviceLevel,
  tracking_number: l.trackingNumber,
  rate_object_id: l.rateObjectId,
  file_type: l.fileType,
  content_type: l.contentType,
  url: `/v1/packages/${l.packageId}/label`,
  amount: num(l.amount) as number,
  insured_amount: num(l.insuredAmount),
  insurance_fee: num(l.insuranceFee),
  refund_status: l.refundStatus,
  created_at: l.createdAt.toISOString(),
});

const toInsurance = (s: InsuranceSummary | null) =>
  s && {
    active: s.active,
    bought: s.bought,
    amount: num(s.amount) as number,
    currency: s.currency,
    fee_estimate: num(s.fee_estimate) as number,
    provider: s.provider,
    covered_items: s.covered_items,
    covered_item_count: s.covered_item_count,
    source: s.source,
  };

export const toPackageResource = (
  p: PackageRecord,
  items: PackageItemRecord[],
  label: PackageLabelRecord | undefined,
  insurance: InsuranceSummary | null,
) => ({
  id: p.id,
  object: 'package' as const,
  entity_id: p.entityId,
  order_id: p.orderId,
  package_number: p.packageNumber,
  status: p.status,
  box_product_id: p.boxProductId,
  weight_lb: num(p.weightLb),
  length_in: num(p.lengthIn),
  width_in: num(p.widthIn),
  height_in: num(p.heightIn),
  carrier: p.carrier,
  service_level: p.serviceLevel,
  tracking_number: p.trackingNumber,
  tracking_url: p.trackingUrl,
  ship_cost: num(p.shipCost),
  billed_ship_cost: num(p.billedShipCost),
  location_id: p.locationId,
  insurance_amount_override: num(p.insuranceAmountOverride),
  insurance: toInsurance(insurance),
  items: items.map(toPackageItemResource),
  label: label ? toLabelResource(label) : null,
  revision_override: p.revisionOverride,
  notes: p.notes,
  metadata: p.metadata,
  shipped_at: isoOrNull(p.shippedAt),
  delivered_at: isoOrNull(p.deliveredAt),
  voided_at: isoOrNull(p.voidedAt),
  returned_at: isoOrNull(p.returnedAt),
  ...resourceTimestamps(p),
});
export type PackageResource = ReturnType<typeof toPackageResource>;
