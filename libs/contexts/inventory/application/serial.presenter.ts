import { SerialNumberRecord } from '../infrastructure/inventory.entities';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

export interface SerialResource {
  id: string;
  object: 'serial_number';
  entity_id: string;
  product_id: string;
  variant_id: string | null;
  serial_number: string;
  status: string;
  location_id: string | null;
  order_id: string | null;
  order_item_id: string | null;
  lot_number: string | null;
  expiry_date: string | null;
  warranty_start_date: string | null;
  warranty_end_date: string | null;
  extended_warranty_end_date: string | null;
  warranty_status: string | null;
  received_at: string | null;
  sold_at: string | null;
  returned_at: string | null;
  last_scanned_at: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export function toSerialResource(s: SerialNumberRecord): SerialResource {
  return {
    id: s.id,
    object: 'serial_number',
    entity_id: s.entityId,
    product_id: s.productId,
    variant_id: s.variantId,
    serial_number: s.serialNumber,
    status: s.status,
    location_id: s.locationId,
    order_id: s.orderId,
    order_item_id: s.orderItemId,
    lot_number: s.lotNumber,
    expiry_date: s.expiryDate,
    warranty_start_date: s.warrantyStartDate,
    warranty_end_date: s.warrantyEndDate,
    extended_warranty_end_date: s.extendedWarrantyEndDate,
    warranty_status: s.warrantyStatus,
    received_at: isoOrNull(s.receivedAt),
    sold_at: isoOrNull(s.soldAt),
    returned_at: isoOrNull(s.returnedAt),
    last_scanned_at: isoOrNull(s.lastScannedAt),
    ...resourceTimestamps(s),
  };
}
