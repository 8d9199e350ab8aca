/** The card details of one charge; used for that charge only and never stored. */
export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
}

export interface ChargeRequest {
  amount: string;
  currency: string;
  /** Either a card to charge once or a stored payment method of the account. */
  card?: CardDetails;
  paymentMethodId?: string;
  description: string;
}

export type ChargeResult =
  | { approved: true; reference: string; brand: string | null; last4: string | null }
  | { approved: false; declineCode: string; message: string; brand: string | null; last4: string | null };

export interface RefundRequest {
  chargeReference: string;
  amount: string;
  currency: string;
  /**
   * The same key asks the processor for the same refund: a repeated request answers the first
   * one's outcome and never refunds twice (how a refund whose answer was lost is finished).
   */
  idempotencyKey: string;
}

/** The processor's answer to a refund; a thrown error means the outcome is unknown. */
export type RefundResult = { refunded: true; reference: string } | { refunded: false; message: string };

/**
 * A payment processor (card acquirer). The sandbox adapter stands in for a real one. It is
 * called outside any database transaction: a slow or hanging processor holds no row lock.
 */
export interface PaymentProcessor {
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

export const PAYMENT_PROCESSOR = Symbol('PaymentProcessor');
