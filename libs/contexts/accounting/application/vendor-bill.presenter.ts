import { toJsonNumber } from '#platform/domain/money';
import { VendorBillPaymentRecord, VendorBillRecord } from '../infrastructure/accounting.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

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
  ...resourceTimestamps(b),
});
export type VendorBillResource = ReturnType<typeof toVendorBill>;
