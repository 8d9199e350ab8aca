import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { SalesError } from './sales-error';

/**
 * Kinds of movement of a customer's credit balance: credit comes from a return refunded to
 * credit (`return_credit`), the unapplied remainder of a bank deposit (`deposit_remainder`) and a
 * refund of a payment made from credit (`payment_refund`); it is spent by paying an invoice
 * (`invoice_payment`); a merge moves it from the merged account to the one it is merged into
 * (`account_merge`, negative on the first, positive on the second).
 */
export const CREDIT_TRANSACTION_TYPES = [
  'return_credit',
  'deposit_remainder',
  'invoice_payment',
  'payment_refund',
  'account_merge',
] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

/** The payment method of a payment made from the account's credit balance. */
export const CREDIT_PAYMENT_METHOD = 'customer_credit';

/**
 * The amount of credit applied to an invoice: by default as much of the amount due as the balance
 * covers; an amount above the balance or the amount due is 422 amount_exceeds_limit, and so is a
 * default with no credit to apply.
 */
export function creditApplicationAmount(
  requested: Decimal | undefined,
  balance: Decimal,
  amountDue: Decimal,
): Decimal {
  const available = Decimal.max(0, balance);
  if (requested !== undefined && requested.gt(amountDue))
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The amount due is ${amountDue.toFixed(2)}; a payment cannot exceed it.`,
    });
  if (requested !== undefined && requested.gt(available))
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The account's credit balance is ${available.toFixed(2)}; ${requested.toFixed(2)} cannot be applied.`,
      details: { credit_balance: Number(available.toFixed(2)) },
    });
  const amount = requested ?? Decimal.min(available, amountDue);
  if (amount.lte(0))
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The account has no credit balance to apply (credit balance ${available.toFixed(2)}).`,
      details: { credit_balance: Number(available.toFixed(2)) },
    });
  return amount;
}

/** The balance after a movement; a movement that would take it below zero is refused (422). */
export function balanceAfter(balance: Decimal, movement: Decimal): Decimal {
  const after = balance.plus(movement);
  if (after.isNegative())
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The account's credit balance is ${balance.toFixed(2)}; ${movement.negated().toFixed(2)} cannot be spent.`,
      details: { credit_balance: Number(balance.toFixed(2)) },
    });
  return after;
}

/**
 * How a credit memo of `amount` on an invoice settles: first it takes what it can off the amount
 * due (nothing is paid back for that part), and only the rest (what was paid for the credited
 * units) goes back to the customer, through the payments or as credit. A credit memo above what
 * the invoice bills and holds (amount due plus amount paid) is 422 amount_exceeds_limit.
 */
export function creditMemoSettlement(
  amount: Decimal,
  invoice: { amountDue: Decimal; amountPaid: Decimal },
): { amountDueReduced: Decimal; paidBack: Decimal } {
  const due = Decimal.max(0, invoice.amountDue);
  const paid = Decimal.max(0, invoice.amountPaid);
  if (amount.gt(due.plus(paid)))
    throw new SalesError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The invoice has ${due.toFixed(2)} due and ${paid.toFixed(2)} paid; a credit memo cannot exceed ${due.plus(paid).toFixed(2)}.`,
    });
  const amountDueReduced = Decimal.min(amount, due);
  return { amountDueReduced: money(amountDueReduced), paidBack: money(amount.minus(amountDueReduced)) };
}
