import Decimal from 'decimal.js';

/** The ledger lines of an imported order (amounts as decimal strings). */
export interface ImportPostingPlan {
  debit_clearing: string;
  credit_revenue: string;
  credit_tax: string;
}

/**
 * An imported order's entry: the channel has taken the customer's money (only orders of the
 * configured paid-like statuses are imported), so the clearing account is debited with the
 * order's total (what the channel owes until it pays out); revenue and tax are credited with what
 * the import recognises (the sales context's rule: every unit, unless a document recognised it
 * first), and any part of the total not explained by them goes to revenue too, so the entry
 * balances.
 */
export function importPosting(
  orderTotal: Decimal.Value,
  recognized: { net: Decimal.Value; tax: Decimal.Value },
): ImportPostingPlan {
  const total = new Decimal(orderTotal);
  const tax = new Decimal(recognized.tax);
  return {
    debit_clearing: total.toFixed(4),
    credit_revenue: total.minus(tax).toFixed(4),
    credit_tax: tax.toFixed(4),
  };
}

/** The ledger lines of a payout: gross leaves clearing, fees go to their account, the net to the bank. */
export interface PayoutPostingPlan {
  credit_clearing: string;
  debit_fees: string;
  debit_bank: string;
}

/**
 * A payout's entry, balanced by construction: gross = fees + net is required of the remote
 * figures (a payout whose figures disagree is refused, never rounded into balance).
 */
export function payoutPosting(payout: { gross: string; fees: string; net: string }): PayoutPostingPlan {
  const gross = new Decimal(payout.gross);
  const fees = new Decimal(payout.fees);
  const net = new Decimal(payout.net);
  if (fees.isNegative() || net.isNegative() || !fees.plus(net).equals(gross))
    throw new Error(
      `The payout's gross ${gross.toFixed(2)} is not its fees ${fees.toFixed(2)} plus its net ${net.toFixed(2)}.`,
    );
  return { credit_clearing: gross.toFixed(2), debit_fees: fees.toFixed(2), debit_bank: net.toFixed(2) };
}

/** Whether a remote order of this financial status is imported under the integration's settings. */
export const isImportable = (status: string, statuses: readonly string[]): boolean =>
  statuses.includes(status);
