import Decimal from 'decimal.js';
import { LabelDrawing, LabelFileType } from '../domain/label';

/** The parcel a carrier quotes: pounds and inches (null when unknown). */
export interface Parcel {
  weightLb: Decimal | null;
  lengthIn: Decimal | null;
  widthIn: Decimal | null;
  heightIn: Decimal | null;
}

export interface ShipTo {
  name: string;
  lines: string[];
}

/** One quote of a carrier and service level. */
export interface CarrierRate {
  carrier: string;
  service: string;
  amount: Decimal;
  currency: string;
  estimatedDays: number | null;
  /** The exact insurance fee of this rate for the insured amount (0 without insurance). */
  insuranceFee: Decimal;
  /** The provider's shipment and rate ids (EasyPost `shp_...` / `rate_...`), kept with the stored rate. */
  providerShipmentId: string | null;
  providerRateId: string | null;
}

export interface QuoteRequest {
  reference: string;
  parcel: Parcel;
  shipTo: ShipTo;
  insuredAmount: Decimal | null;
}

export interface PurchaseRequest {
  reference: string;
  parcel: Parcel;
  shipTo: ShipTo;
  rate: CarrierRate;
  insuredAmount: Decimal | null;
  fileType: LabelFileType;
  /** What the label shows besides the carrier's data and the package number (see PurchasedLabel.drawing). */
  label: Omit<LabelDrawing, 'trackingNumber' | 'carrier' | 'service'>;
}

export interface PurchasedLabel {
  trackingNumber: string;
  trackingUrl: string | null;
  amount: Decimal;
  insuredAmount: Decimal | null;
  insuranceFee: Decimal | null;
  fileType: LabelFileType;
  contentType: string;
  /**
   * The label file from a provider that makes it; null from one that leaves the drawing to us
   * (the sandbox), which answers `drawing` instead: the file is drawn with the package number
   * when served, since a new package takes its number only as its transaction commits.
   */
  content: Buffer | null;
  drawing: LabelDrawing | null;
  providerShipmentId: string | null;
}

/** A carrier's refusal (purchase, refund): its reason becomes the hint of the 422. */
export class CarrierFailure extends Error {}

/**
 * What fulfillment needs from a label provider (the sandbox carrier or EasyPost): quotes,
 * purchases (label file, tracking, insurance) and refunds. Adapters throw CarrierFailure for
 * the provider's refusals; anything else is an outage.
 */
export interface CarrierGateway {
  /** `sandbox` or `easypost`: stored with each rate and label. */
  readonly provider: string;
  quote(request: QuoteRequest): Promise<CarrierRate[]>;
  purchase(request: PurchaseRequest): Promise<PurchasedLabel>;
  /** 'refunded' when the carrier takes the label back, 'rejected' when it refuses. */
  refund(label: LabelToRefund): Promise<'refunded' | 'rejected'>;
}

/** What a carrier needs to take a label back. */
export interface LabelToRefund {
  carrier: string;
  service: string;
  trackingNumber: string;
  providerShipmentId: string | null;
}

/**
 * Asks the carrier to take a label back (never inside a transaction): `refunded`, `rejected`,
 * or `unanswered` when the carrier could not be reached (asking again is safe: a label is taken
 * back once).
 */
export async function askRefund(
  carrier: CarrierGateway,
  label: LabelToRefund,
): Promise<'refunded' | 'rejected' | 'unanswered'> {
  try {
    return await carrier.refund(label);
  } catch {
    return 'unanswered';
  }
}

export const CARRIER_GATEWAY = Symbol('CARRIER_GATEWAY');
