import Decimal from 'decimal.js';
import { SalesError } from './sales-error';

/** The facts the refund rules need about one payment. */
export interface RefundablePayment {
  id: string;
  status: string;
  amount: Decimal;
  amountRefunded: Decimal;
}

/**
 * The payment refund state machine:
 *   succeeded | partially_refunded --refund--> partially_refunded | refunded
 * A refund takes at most what is not refunded yet (all of it when no amount is asked). Returns
 * the amount to refund; throws 409 invalid_state for any other status, 422 amount_exceeds_limit
 * beyond the refundable amount.
 */
export function refundAmount(payment: RefundablePayment, requested: Decimal | undefined): Decimal {
  if (payment.status !== 'succeeded' && payment.status !== 'partially_refunded') {
    throw new SalesError('invalid_state', {
      hint: `Payment '${payment.id}' has status '${payment.status}'; only a succeeded or partially_refunded payment can be refunded.`,
    });
  }
  const refundable = payment.amount.minus(payment.amountRefunded);
  const amount = requested ?? refundable;
  if (amount.gt(refundable)) {
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `At most ${refundable.toFixed(2)} of payment '${payment.id}' is left to refund.`,
    });
  }
  return amount;
}

/** A payment's status once `refunded` of it is refunded in all. */
export const statusAfterRefund = (amount: Decimal, refunded: Decimal): 'refunded' | 'partially_refunded' =>
  refunded.gte(amount) ? 'refunded' : 'partially_refunded';
