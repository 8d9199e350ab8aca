import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { SERVICE_LEVELS } from '../domain/carrier-service';
import { CONTENT_TYPES } from '../domain/label';
import {
  CarrierFailure,
  CarrierGateway,
  CarrierRate,
  Parcel,
  PurchaseRequest,
  PurchasedLabel,
  QuoteRequest,
} from '../application/carrier.port';

interface CarrierTerms {
  /** Heaviest parcel the carrier accepts (lb): a heavier purchase fails. */
  maxWeightLb: number;
  /** Dimensional weight divisor (cubic inches per pound). */
  dimDivisor: number;
  insuranceRate: Decimal;
  /** Base and per-pound price by service. */
  prices: Record<string, [string, string]>;
  trackingUrl: (tracking: string) => string;
  /** Services billed on scan: a refund is refused (EasyPost reports `not_applicable`). */
  noRefund: string[];
}

/**
 * The sandbox carrier's price list (docs/api-decisions.md, Fulfillment, "Packages, labels, insurance and shipping": Sandbox carrier).
 * amount = base + per_lb × billable pounds, billable = max(actual, L×W×H / divisor), rounded up
 * to whole pounds, at least 1. Insurance fee = insured amount × the carrier's rate, at least 1.00.
 */
export const SANDBOX_TERMS: Record<string, CarrierTerms> = {
  usps: {
    maxWeightLb: 70,
    dimDivisor: 166,
    insuranceRate: money('0.015'),
    prices: {
      ground_advantage: ['4.75', '0.55'],
      priority: ['7.90', '0.95'],
      priority_express: ['26.35', '2.10'],
    },
    trackingUrl: (t) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${t}`,
    noRefund: [],
  },
  ups: {
    maxWeightLb: 150,
    dimDivisor: 139,
    insuranceRate: money('0.014'),
    prices: { ground: ['9.45', '0.70'], '2nd_day_air': ['18.20', '1.65'], next_day_air: ['41.00', '3.10'] },
    trackingUrl: (t) => `https://www.ups.com/track?tracknum=${t}`,
    noRefund: [],
  },
  fedex: {
    maxWeightLb: 150,
    dimDivisor: 139,
    insuranceRate: money('0.016'),
    prices: { ground: ['9.10', '0.68'], '2_day': ['19.40', '1.70'], standard_overnight: ['43.50', '3.25'] },
    trackingUrl: (t) => `https://www.fedex.com/fedextrack/?trknbr=${t}`,
    noRefund: ['ground'],
  },
};

export function billablePounds(parcel: Parcel, divisor: number): number {
  const actual = parcel.weightLb ?? money(1);
  const dims = [parcel.lengthIn, parcel.widthIn, parcel.heightIn];
  const dimWeight = dims.every((d) => d !== null)
    ? dims.reduce((p, d) => p!.times(d!), money(1))!.dividedBy(divisor)
    : money(0);
  return Math.max(1, Decimal.max(actual, dimWeight).ceil().toNumber());
}

export const insuranceFeeOf = (insured: Decimal | null, rate: Decimal): Decimal =>
  insured && insured.gt(0) ? Decimal.max(money('1.00'), insured.times(rate).toDecimalPlaces(2)) : money(0);

/** Deterministic tracking numbers in each carrier's usual shape, from the purchase reference. */
function trackingNumber(carrier: string, reference: string): string {
  const digest = createHash('sha256').update(`${carrier}:${reference}`).digest();
  const digits = (n: number) =>
    Array.from({ length: n }, (_, i) => String(digest[i % digest.length] % 10)).join('');
  if (carrier === 'ups')
    return `1Z${Array.from({ length: 16 }, (_, i) => '0123456789ABCDEFGHJKLMNPRSTUVWXYZ'[digest[i] % 33]).join('')}`;
  if (carrier === 'fedex') return digits(12);
  return `9400${digits(18)}`;
}

/**
 * The default label provider: no network, deterministic rates for USPS, UPS and FedEx, and real
 * label files (PDF, PNG, ZPL II) with the tracking number as a Code 128 barcode. A purchase for
 * a parcel over the carrier's weight limit (USPS 70 lb, UPS and FedEx 150 lb) fails, which is
 * how QA reaches the label-failure rule; FedEx Ground labels cannot be refunded.
 */
export class SandboxCarrier implements CarrierGateway {
  readonly provider = 'sandbox';

  quote(request: QuoteRequest): Promise<CarrierRate[]> {
    return Promise.resolve(
      SERVICE_LEVELS.map((level) => {
        const terms = SANDBOX_TERMS[level.carrier];
        const [base, perLb] = terms.prices[level.service];
        const pounds = billablePounds(request.parcel, terms.dimDivisor);
        return {
          carrier: level.carrier,
          service: level.service,
          amount: money(base).plus(money(perLb).times(pounds)),
          currency: 'USD',
          estimatedDays: level.days,
          insuranceFee: insuranceFeeOf(request.insuredAmount, terms.insuranceRate),
          providerShipmentId: null,
          providerRateId: null,
        };
      }),
    );
  }

  purchase(request: PurchaseRequest): Promise<PurchasedLabel> {
    const { rate, parcel } = request;
    const terms = SANDBOX_TERMS[rate.carrier];
    if (!terms || !terms.prices[rate.service])
      throw new CarrierFailure(`The sandbox carrier has no service ${rate.carrier} ${rate.service}.`);
    if (parcel.weightLb && parcel.weightLb.gt(terms.maxWeightLb))
      throw new CarrierFailure(
        `${rate.carrier.toUpperCase()} does not accept parcels over ${terms.maxWeightLb} lb; this package weighs ${parcel.weightLb.toString()} lb. Lower weight_lb or choose another carrier's rate.`,
      );
    const tracking = trackingNumber(rate.carrier, request.reference);
    return Promise.resolve({
      trackingNumber: tracking,
      trackingUrl: terms.trackingUrl(tracking),
      amount: rate.amount,
      insuredAmount: request.insuredAmount,
      insuranceFee: request.insuredAmount ? insuranceFeeOf(request.insuredAmount, terms.insuranceRate) : null,
      fileType: request.fileType,
      contentType: CONTENT_TYPES[request.fileType],
      content: null,
      drawing: { ...request.label, trackingNumber: tracking, carrier: rate.carrier, service: rate.service },
      providerShipmentId: null,
    });
  }

  refund(label: { carrier: string; service: string }): Promise<'refunded' | 'rejected'> {
    const terms = SANDBOX_TERMS[label.carrier];
    return Promise.resolve(terms && !terms.noRefund.includes(label.service) ? 'refunded' : 'rejected');
  }
}
