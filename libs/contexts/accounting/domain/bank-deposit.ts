import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { transition, Transitions } from '#platform/domain/state-machine';
import { AccountingError } from './accounting-error';

export const BANK_TRANSACTION_TYPES = ['deposit', 'withdrawal'] as const;
export const BANK_TRANSACTION_STATUSES = ['unmatched', 'matched'] as const;
export type BankTransactionStatus = (typeof BANK_TRANSACTION_STATUSES)[number];
export type BankTransactionAction = 'match';

/** A bank transaction's life cycle: matched to invoices once. */
const BANK_TRANSACTION_TRANSITIONS: Transitions<BankTransactionStatus, BankTransactionAction> = {
  unmatched: { match: 'matched' },
  matched: {},
};

/** The status `action` leads to from `status`; 409 invalid_state where the table does not allow it. */
export function bankTransactionTransition(
  action: BankTransactionAction,
  status: string,
): BankTransactionStatus {
  return transition(
    BANK_TRANSACTION_TRANSITIONS,
    status,
    action,
    (current, allowed) =>
      new AccountingError('invalid_state', {
        hint: `Cannot ${action} a bank transaction whose status is '${current}'; allowed from: ${allowed.join(', ')}.`,
        details: { status: current },
      }),
  );
}
export const UNAPPLIED_ROUTES = ['customer_credit', 'suspense'] as const;
export type UnappliedRoute = (typeof UNAPPLIED_ROUTES)[number];

/**
 * Matching a bank transaction to invoices: only deposits are matched, each once
 * (unmatched --match--> matched). Throws 409 invalid_state otherwise.
 */
export function assertMatchable(transaction: { type: string; status: string }): void {
  if (transaction.type !== 'deposit') {
    throw new AccountingError('invalid_state', {
      hint: `Only deposits can be matched to invoices; this bank transaction is a '${transaction.type}'.`,
      details: { type: transaction.type },
    });
  }
  bankTransactionTransition('match', transaction.status);
}

export interface Application {
  invoiceId: string;
  amount: Decimal;
}

export interface OpenInvoice {
  invoiceId: string;
  currency: string;
  amountDue: Decimal;
}

/** Why a set of applications cannot be matched to a deposit, with the request field at fault. */
export type MatchProblem =
  | { kind: 'duplicate_invoice'; param: string; invoiceId: string }
  | { kind: 'invoice_not_open'; param: string; invoiceId: string }
  | { kind: 'currency_mismatch'; param: string; invoiceId: string; currency: string }
  | { kind: 'exceeds_amount_due'; param: string; invoiceId: string; amountDue: Decimal }
  | { kind: 'exceeds_deposit'; param: 'applications'; applied: Decimal }
  | { kind: 'unrouted_remainder'; param: 'route_unapplied'; remainder: Decimal };

export interface MatchPlan {
  applied: Decimal;
  remainder: Decimal;
}

/**
 * The deposit-matching rules, in the order they are checked: each invoice once, each invoice open and
 * the account's (the port omits the others), same currency as the deposit, no application above the
 * invoice's amount due, the total within the deposit, and a remainder only with a route for it.
 */
export function planDepositMatch(
  deposit: { amount: Decimal; currency: string },
  applications: readonly Application[],
  open: readonly OpenInvoice[],
  route: UnappliedRoute | null,
): MatchPlan | MatchProblem {
  const byId = new Map(open.map((i) => [i.invoiceId, i]));
  const seen = new Set<string>();
  for (const [n, a] of applications.entries()) {
    const param = `applications[${n}].invoice_id`;
    if (seen.has(a.invoiceId)) return { kind: 'duplicate_invoice', param, invoiceId: a.invoiceId };
    seen.add(a.invoiceId);
    const invoice = byId.get(a.invoiceId);
    if (!invoice) return { kind: 'invoice_not_open', param, invoiceId: a.invoiceId };
    if (invoice.currency !== deposit.currency)
      return { kind: 'currency_mismatch', param, invoiceId: a.invoiceId, currency: invoice.currency };
    if (a.amount.greaterThan(invoice.amountDue)) {
      return {
        kind: 'exceeds_amount_due',
        param: `applications[${n}].amount`,
        invoiceId: a.invoiceId,
        amountDue: invoice.amountDue,
      };
    }
  }
  const applied = applications.reduce((sum, a) => sum.plus(a.amount), money(0));
  if (applied.greaterThan(deposit.amount)) return { kind: 'exceeds_deposit', param: 'applications', applied };
  const remainder = deposit.amount.minus(applied);
  if (remainder.isPositive() && !remainder.isZero() && route === null)
    return { kind: 'unrouted_remainder', param: 'route_unapplied', remainder };
  return { applied, remainder };
}

export const isMatchProblem = (result: MatchPlan | MatchProblem): result is MatchProblem => 'kind' in result;
