import { resolveCarrierService } from './carrier-service';
import { FulfillmentError } from './fulfillment-error';

/** What POST /packages/{id}/ship may say about the carrier and tracking. */
export interface ShipInput {
  carrier_service?: string;
  carrier?: string;
  service?: string;
  tracking_number?: string;
  tracking_url?: string;
}

/** The carrier and tracking fields of a package being shipped. */
export interface ShippedPackage {
  status: string;
  carrier: string | null;
  serviceLevel: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
}

/**
 * The carrier and tracking a package ships with, set in memory: a labeled package ships with its
 * label's (the request may not name others); any other is shipped by hand, with its carrier
 * (from the request or the package) and the carrier's tracking number.
 */
export function applyShipmentCarrier(pkg: ShippedPackage, input: ShipInput): void {
  if (pkg.status === 'labeled') {
    if (input.tracking_number || input.carrier || input.carrier_service)
      throw new FulfillmentError('parameter_invalid', {
        param: input.tracking_number ? 'tracking_number' : 'carrier',
        hint: 'This package has a bought label: its carrier and tracking come from the label.',
      });
    return;
  }
  const { carrier, service } = resolveCarrierService(input);
  const chosenCarrier = carrier ?? pkg.carrier;
  if (!chosenCarrier)
    throw new FulfillmentError('parameter_missing', {
      param: 'carrier',
      hint: 'A package shipped without a bought label needs its carrier (carrier or carrier_service).',
    });
  if (!input.tracking_number)
    throw new FulfillmentError('parameter_missing', {
      param: 'tracking_number',
      hint: 'A package shipped without a bought label needs the tracking_number given by the carrier.',
    });
  pkg.carrier = chosenCarrier;
  pkg.serviceLevel = service ?? pkg.serviceLevel;
  pkg.trackingNumber = input.tracking_number;
  pkg.trackingUrl = input.tracking_url ?? null;
}
