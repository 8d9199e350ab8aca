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

/** A payment processor (card acquirer). The sandbox adapter stands in for a real one. */
export interface PaymentProcessor {
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: {
    chargeReference: string;
    amount: string;
    currency: string;
  }): Promise<{ reference: string }>;
}

export const PAYMENT_PROCESSOR = Symbol('PaymentProcessor');
