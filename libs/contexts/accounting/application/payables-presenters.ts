import { toJsonNumber } from '../../../platform/persistence/money';
import {
  BankTransactionRecord,
  VendorBillPaymentRecord,
  VendorBillRecord,
} from '../infrastructure/accounting.entities';

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
  livemode: t.livemode,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});
export type BankTransactionResource = ReturnType<typeof toBankTransaction>;

export const toBillPayment = (p: VendorBillPaymentRecord) => ({
  id: p.id,
  object: 'vendor_bill_payment' as const,
  vendor_bill_id: p.vendorBillId,
  amount: toJsonNumber(p.amount),
  payment_date: p.paymentDate,
  bank_account_id: p.bankAccountId,
  reference: p.reference,
  journal_entry_id: p.journalEntryId,
  created_at: p.createdAt.toISOString(),
});

export const toVendorBill = (b: VendorBillRecord, payments?: VendorBillPaymentRecord[]) => ({
  id: b.id,
  object: 'vendor_bill' as const,
  vendor_name: b.vendorName,
  bill_number: b.billNumber,
  bill_date: b.billDate,
  due_date: b.dueDate,
  currency: b.currency,
  amount: toJsonNumber(b.amount),
  amount_paid: toJsonNumber(b.amountPaid),
  amount_due: toJsonNumber(b.status === 'voided' ? b.amount.minus(b.amount) : b.amount.minus(b.amountPaid)),
  status: b.status,
  debit_account_id: b.debitAccountId,
  description: b.description,
  journal_entry_id: b.journalEntryId,
  voided_on: b.voidedOn,
  void_journal_entry_id: b.voidJournalEntryId,
  ...(payments ? { payments: payments.map(toBillPayment) } : {}),
  livemode: b.livemode,
  created_at: b.createdAt.toISOString(),
  updated_at: b.updatedAt.toISOString(),
});
export type VendorBillResource = ReturnType<typeof toVendorBill>;
