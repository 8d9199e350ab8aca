import { mergeMetadata } from '#platform/domain/metadata';
import { money } from '#platform/domain/money';
import Decimal from 'decimal.js';
import { resolveCarrierService } from './carrier-service';
import { FulfillmentError } from './fulfillment-error';

/** The fields of a package a request may set (POST /packages and PATCH /packages/{id}). */
export interface PackageFields {
  box_product_id?: string | null;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  weight?: number | null;
  notes?: string | null;
  metadata?: Record<string, unknown>;
  carrier_service?: string | null;
  carrier?: string | null;
  service?: string | null;
  location_id?: string | null;
  insurance_amount_override?: number | null;
  billed_ship_cost?: number | null;
}

/** The package's own fields that a request sets. */
export interface EditablePackage {
  boxProductId: string | null;
  lengthIn: Decimal | null;
  widthIn: Decimal | null;
  heightIn: Decimal | null;
  weightLb: Decimal | null;
  notes: string | null;
  metadata: Record<string, string>;
  insuranceAmountOverride: Decimal | null;
  billedShipCost: Decimal | null;
  carrier: string | null;
  serviceLevel: string | null;
  locationId: string | null;
}

/** What a package needs to know about a box product (its type, dimensions and weight). */
export interface BoxFacts {
  type: string;
  weight: { value: number; unit: string } | null;
  dimensions: { length: number; width: number; height: number; unit: string } | null;
}

/** A box's dimensions in inches and weight in pounds. */
const TO_INCHES: Record<string, number> = { in: 1, ft: 12, mm: 1 / 25.4, cm: 1 / 2.54, m: 100 / 2.54 };
const TO_POUNDS: Record<string, number> = { lb: 1, oz: 1 / 16, kg: 2.20462262, g: 0.00220462262 };
const inches = (v: number, unit: string) =>
  money(v)
    .times(TO_INCHES[unit] ?? 1)
    .toDecimalPlaces(4);
const pounds = (v: number, unit: string) =>
  money(v)
    .times(TO_POUNDS[unit] ?? 1)
    .toDecimalPlaces(4);
const amountOrNull = (v: number | null | undefined) => (v === null || v === undefined ? null : money(v));

/**
 * Sets the request's fields on the package, in memory. A box (`box_product_id`, found in
 * `boxes`) must be a product of type `box`; it gives its dimensions, and its weight unless the
 * request or the package has one. The location is set as given: the caller checks it exists.
 */
export function applyPackageFields(
  pkg: EditablePackage,
  input: PackageFields,
  boxes: ReadonlyMap<string, BoxFacts>,
): void {
  if (input.box_product_id !== undefined) {
    pkg.boxProductId = input.box_product_id;
    if (input.box_product_id) {
      const box = boxes.get(input.box_product_id);
      if (!box || box.type !== 'box')
        throw new FulfillmentError('parameter_invalid', {
          param: 'box_product_id',
          hint: box
            ? `Product '${input.box_product_id}' is of type '${box.type}'; box_product_id names a product of type 'box'.`
            : `No product with id '${input.box_product_id}' exists for this entity and mode.`,
        });
      if (box.dimensions) {
        pkg.lengthIn = inches(box.dimensions.length, box.dimensions.unit);
        pkg.widthIn = inches(box.dimensions.width, box.dimensions.unit);
        pkg.heightIn = inches(box.dimensions.height, box.dimensions.unit);
      }
      if (box.weight && input.weight === undefined && pkg.weightLb === null)
        pkg.weightLb = pounds(box.weight.value, box.weight.unit);
    }
  }
  if (input.length !== undefined) pkg.lengthIn = amountOrNull(input.length);
  if (input.width !== undefined) pkg.widthIn = amountOrNull(input.width);
  if (input.height !== undefined) pkg.heightIn = amountOrNull(input.height);
  if (input.weight !== undefined) pkg.weightLb = amountOrNull(input.weight);
  if (input.notes !== undefined) pkg.notes = input.notes;
  if (input.metadata !== undefined) pkg.metadata = mergeMetadata(pkg.metadata, input.metadata);
  if (input.insurance_amount_override !== undefined)
    pkg.insuranceAmountOverride = amountOrNull(input.insurance_amount_override);
  if (input.billed_ship_cost !== undefined) pkg.billedShipCost = amountOrNull(input.billed_ship_cost);
  if (input.carrier_service !== undefined || input.carrier !== undefined || input.service !== undefined) {
    const { carrier, service } = resolveCarrierService(input);
    if (carrier || input.carrier === null || input.carrier_service === null) pkg.carrier = carrier;
    if (service || input.service === null || input.carrier_service === null) pkg.serviceLevel = service;
  }
  if (input.location_id !== undefined) pkg.locationId = input.location_id;
}

/** 422 parameter_invalid on location_id unless `locations` (the entity and mode's) has that location. */
export async function assertLocationExists(
  locations: { exists(id: string): Promise<boolean> },
  locationId: string,
): Promise<void> {
  if (!(await locations.exists(locationId)))
    throw new FulfillmentError('parameter_invalid', {
      param: 'location_id',
      hint: `No location with id '${locationId}' exists for this entity and mode.`,
    });
}
