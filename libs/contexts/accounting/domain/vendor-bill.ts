import { AccountingError, invalidState } from './accounting-error';

/** Vendor bill statuses: open until paid in part or whole; voided only while nothing is paid. */
export const VENDOR_BILL_STATUSES = ['open', 'partially_paid', 'paid', 'voided'] as const;
export type VendorBillStatus = (typeof VENDOR_BILL_STATUSES)[number];

/**
 * The vendor bill state machine (the status after a payment comes from `billStatus`):
 *   open | partially_paid --pay--> partially_paid | paid
 *   open --void--> voided   (a bill with payments is not voided)
 * Throws 409 invalid_state naming the current status when the action is not allowed.
 */
export function assertBillAction(action: 'pay' | 'void', status: string): void {
  if (action === 'pay' && status !== 'open' && status !== 'partially_paid') {
    throw invalidState('vendor bill', status, 'pay', ['open', 'partially_paid']);
  }
  if (action === 'void' && status !== 'open') {
    throw new AccountingError('invalid_state', {
      hint: `Cannot void a vendor bill whose status is '${status}'; allowed from: open (no payments).`,
      details: { status },
    });
  }
}

/** A bill is settled once its status is `paid` (the moment `purchasing.vendor_bill.paid` is published). */
export const isPaid = (status: string): boolean => status === 'paid';
