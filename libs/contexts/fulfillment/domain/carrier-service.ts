import { FulfillmentError } from './fulfillment-error';

/** A carrier the sandbox and the real provider adapters can quote and label. */
export interface ServiceLevel {
  carrier: string;
  service: string;
  /** Business days in transit. */
  days: number;
  /** The name a label prints and a person reads (`USPS Ground Advantage`). */
  name: string;
}

/**
 * The service levels of the three carriers, keyed by their compound `carrier_service` code
 * (`<carrier>_<service>`, lower case). POST /packages accepts either the compound code or
 * `carrier` and `service`; the compound code is split with this table, never by guessing at
 * the first underscore (UPS's `2nd_day_air` and FedEx's `2_day` contain underscores).
 */
export const SERVICE_LEVELS: readonly ServiceLevel[] = [
  { carrier: 'usps', service: 'ground_advantage', days: 5, name: 'USPS Ground Advantage' },
  { carrier: 'usps', service: 'priority', days: 3, name: 'USPS Priority Mail' },
  { carrier: 'usps', service: 'priority_express', days: 1, name: 'USPS Priority Mail Express' },
  { carrier: 'ups', service: 'ground', days: 5, name: 'UPS Ground' },
  { carrier: 'ups', service: '2nd_day_air', days: 2, name: 'UPS 2nd Day Air' },
  { carrier: 'ups', service: 'next_day_air', days: 1, name: 'UPS Next Day Air' },
  { carrier: 'fedex', service: 'ground', days: 5, name: 'FedEx Ground' },
  { carrier: 'fedex', service: '2_day', days: 2, name: 'FedEx 2Day' },
  { carrier: 'fedex', service: 'standard_overnight', days: 1, name: 'FedEx Standard Overnight' },
];

export const CARRIERS = [...new Set(SERVICE_LEVELS.map((s) => s.carrier))];

export const compoundCode = (carrier: string, service: string) => `${carrier}_${service}`;

/** Every compound `carrier_service` code, in the order of the table. */
export const CARRIER_SERVICE_CODES = SERVICE_LEVELS.map((s) => compoundCode(s.carrier, s.service));

/** The services of a carrier, in the order of the table. */
export const servicesOf = (carrier: string): string[] =>
  SERVICE_LEVELS.filter((s) => s.carrier === carrier).map((s) => s.service);

const BY_CODE = new Map(SERVICE_LEVELS.map((s) => [compoundCode(s.carrier, s.service), s]));

/**
 * The display name of a carrier's service (`USPS Ground Advantage`); a service the table does not
 * know (a real provider's) reads as its code in words: `usps`, `media_mail` -> `USPS Media Mail`.
 */
export function serviceDisplayName(carrier: string, service: string): string {
  const known = BY_CODE.get(compoundCode(carrier.toLowerCase(), service.toLowerCase()));
  if (known) return known.name;
  const words = service
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
  const carrierName = SERVICE_LEVELS.find((s) => s.carrier === carrier.toLowerCase())?.name.split(' ')[0];
  return [carrierName ?? carrier.toUpperCase(), ...words].join(' ');
}

/** Splits a compound code into carrier and service; 400 parameter_invalid for an unknown code. */
export function splitCarrierService(code: string, param = 'carrier_service'): ServiceLevel {
  const found = BY_CODE.get(code.trim().toLowerCase());
  if (!found)
    throw new FulfillmentError('parameter_invalid', {
      param,
      hint: `Unknown carrier_service '${code}'. Known codes: ${[...BY_CODE.keys()].join(', ')}.`,
    });
  return found;
}

/**
 * The carrier and service of a request that may send `carrier_service`, `carrier` and `service`:
 * the compound code wins when it agrees with the separate fields; a disagreement is 400.
 */
export function resolveCarrierService(input: {
  carrier_service?: string | null;
  carrier?: string | null;
  service?: string | null;
}): { carrier: string | null; service: string | null } {
  const carrier = input.carrier ? input.carrier.trim().toLowerCase() : null;
  const service = input.service ? input.service.trim().toLowerCase() : null;
  if (input.carrier_service) {
    const split = splitCarrierService(input.carrier_service);
    if ((carrier && carrier !== split.carrier) || (service && service !== split.service))
      throw new FulfillmentError('parameter_invalid', {
        param: 'carrier_service',
        hint: `carrier_service '${input.carrier_service}' means carrier '${split.carrier}' and service '${split.service}', which disagrees with the carrier or service sent.`,
      });
    return { carrier: split.carrier, service: split.service };
  }
  if (carrier && !CARRIERS.includes(carrier))
    throw new FulfillmentError('parameter_invalid', {
      param: 'carrier',
      hint: `Unknown carrier '${input.carrier}'. Known carriers: ${CARRIERS.join(', ')}.`,
    });
  if (carrier && service && !BY_CODE.has(compoundCode(carrier, service)))
    throw new FulfillmentError('parameter_invalid', {
      param: 'service',
      hint: `Carrier '${carrier}' has no service '${input.service}'. Its services: ${SERVICE_LEVELS.filter(
        (s) => s.carrier === carrier,
      )
        .map((s) => s.service)
        .join(', ')}.`,
    });
  return { carrier, service };
}
