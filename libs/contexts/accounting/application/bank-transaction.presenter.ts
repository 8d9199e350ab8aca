import { toJsonNumber } from '#platform/domain/money';
import { BankTransactionRecord } from '../infrastructure/accounting.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toBankTransaction = (t: BankTransactionRecord) => ({
  id: t.id,
  object: 'bank_transaction' as const,
  bank_account_id: t.bankAccountId,
  type: t.type,
  amount: toJsonNumber(t.amount),
  currency: t.currency,
  transaction_date: t.transactionDate,
  description: t.description,
  reference: t.reference,
  status: t.status,
  matched_at: t.matchedAt?.toISOString() ?? null,
  match:
    t.status === 'matched'
      ? {
          account_id: t.customerAccountId,
          payment_id: t.paymentId,
          journal_entry_id: t.journalEntryId,
          applied_amount: toJsonNumber(t.appliedAmount),
          unapplied_amount: toJsonNumber(t.unappliedAmount),
          route_unapplied: t.routeUnapplied,
          reconciliation_id: t.reconciliationId,
          payment_method: t.paymentMethod,
          applications: (t.applications ?? []).map((a) => ({
            invoice_id: a.invoice_id,
            amount: Number(a.amount),
          })),
        }
      : null,
  payment_id: t.paymentId,
  journal_entry_id: t.journalEntryId,
  ...resourceTimestamps(t),
});
export type BankTransactionResource = ReturnType<typeof toBankTransaction>;
