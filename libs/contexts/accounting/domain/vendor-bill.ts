import Decimal from 'decimal.js';
import { transition, Transitions } from '#platform/domain/state-machine';
import { AccountingError, invalidState } from './accounting-error';

/** Vendor bill statuses: open until paid in part or whole; voided only while nothing is paid. */
export const VENDOR_BILL_STATUSES = ['open', 'partially_paid', 'paid', 'voided'] as const;
export type VendorBillStatus = (typeof VENDOR_BILL_STATUSES)[number];

/** The moves of a bill: a payment is `pay` while some of the bill stays due, `pay_rest` when it settles it. */
export type VendorBillAction = 'pay' | 'pay_rest' | 'void';

/**
 * The vendor bill state machine:
 *   open | partially_paid --pay--> partially_paid
 *   open | partially_paid --pay_rest--> paid
 *   open --void--> voided   (a bill with payments is not voided)
 */
const VENDOR_BILL_TRANSITIONS: Transitions<VendorBillStatus, VendorBillAction> = {
  open: { pay: 'partially_paid', pay_rest: 'paid', void: 'voided' },
  partially_paid: { pay: 'partially_paid', pay_rest: 'paid' },
  paid: {},
  voided: {},
};

/**
 * The status `action` leads the bill to; 409 invalid_state naming the current status where the
 * table does not allow it.
 */
export function vendorBillTransition(action: VendorBillAction, status: string): VendorBillStatus {
  return transition(VENDOR_BILL_TRANSITIONS, status, action, (current, allowed) =>
    action === 'void'
      ? new AccountingError('invalid_state', {
          hint: `Cannot void a vendor bill whose status is '${current}'; allowed from: ${allowed.join(', ')} (no payments).`,
          details: { status: current },
        })
      : invalidState('vendor bill', current, 'pay', allowed),
  );
}

/** The status after a payment: `paid` once what was paid in all reaches the bill's amount. */
export const statusAfterPayment = (
  bill: { status: string; amount: Decimal },
  paid: Decimal,
): VendorBillStatus =>
  vendorBillTransition(paid.greaterThanOrEqualTo(bill.amount) ? 'pay_rest' : 'pay', bill.status);

/** A bill is settled once its status is `paid` (the moment `purchasing.vendor_bill.paid` is published). */
export const isPaid = (status: string): boolean => status === 'paid';
