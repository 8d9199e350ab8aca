import Decimal from 'decimal.js';
import { nextState, transition, Transitions } from '#platform/domain/state-machine';
import { SalesError } from './sales-error';

/** The facts the refund rules need about one payment. */
export interface RefundablePayment {
  id: string;
  status: string;
  amount: Decimal;
  amountRefunded: Decimal;
}

/**
 * A payment's statuses: a payment that succeeded is refunded in part, then in whole (not the
 * order's `payment_status`, which is `PaymentStatus` in order.ts).
 */
type PaymentResourceStatus = 'succeeded' | 'failed' | 'partially_refunded' | 'refunded';

/** The moves of a payment: a refund is `refund` while some of the payment stays, `refund_rest` when it takes the rest. */
export type PaymentAction = 'refund' | 'refund_rest';

/**
 * The payment state machine:
 *   succeeded | partially_refunded --refund--> partially_refunded
 *   succeeded | partially_refunded --refund_rest--> refunded
 */
const PAYMENT_TRANSITIONS: Transitions<PaymentResourceStatus, PaymentAction> = {
  succeeded: { refund: 'partially_refunded', refund_rest: 'refunded' },
  failed: {},
  partially_refunded: { refund: 'partially_refunded', refund_rest: 'refunded' },
  refunded: {},
};

/** The status `action` leads the payment to; 409 invalid_state naming the current status where the table does not allow it. */
export function paymentTransition(
  action: PaymentAction,
  payment: { id: string; status: string },
): PaymentResourceStatus {
  return transition(
    PAYMENT_TRANSITIONS,
    payment.status,
    action,
    (current, allowed) =>
      new SalesError('invalid_state', {
        hint: `Payment '${payment.id}' has status '${current}'; only a ${allowed.join(' or ')} payment can be refunded.`,
      }),
  );
}

/** Whether the payment's status allows a refund (what is left of it may still be refunded). */
export const isRefundable = (status: string): boolean =>
  nextState(PAYMENT_TRANSITIONS, status, 'refund') !== null;

/**
 * A refund takes at most what is not refunded yet (all of it when no amount is asked). Returns
 * the amount to refund; throws 409 invalid_state where the payment's status allows no refund,
 * 422 amount_exceeds_limit beyond the refundable amount.
 */
export function refundAmount(payment: RefundablePayment, requested: Decimal | undefined): Decimal {
  paymentTransition('refund', payment);
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

/** A payment's status once `amountRefunded` of it is refunded in all. */
export const statusAfterRefund = (payment: RefundablePayment): PaymentResourceStatus =>
  paymentTransition(payment.amountRefunded.gte(payment.amount) ? 'refund_rest' : 'refund', payment);
