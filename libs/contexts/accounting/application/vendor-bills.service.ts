import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { newId } from '#platform/persistence/ids';
import { money, toJsonNumber } from '#platform/domain/money';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { isPaid, statusAfterPayment, vendorBillTransition } from '../domain/vendor-bill';
import { VendorBillPaymentRecord, VendorBillRecord } from '../infrastructure/accounting.entities';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';
import { VendorBillPaymentRepository } from '../infrastructure/vendor-bill-payment.repository';
import { VendorBillRepository } from '../infrastructure/vendor-bill.repository';
import { AccountingSettingsService } from './accounting-settings.service';
import { baseCurrency, requireBankAccount } from './bank-accounts';
import { LedgerPostingService } from './ledger-posting.service';
import { toVendorBill, VendorBillResource } from './vendor-bill.presenter';
import { postedDocumentFields } from './expand-fields';

export interface VendorBillInput {
  vendor_name: string;
  bill_number?: string | null;
  bill_date?: string;
  due_date?: string | null;
  currency?: string;
  amount: number;
  debit_account_id: string;
  description?: string | null;
}

export interface BillPaymentInput {
  amount: number;
  payment_date?: string;
  bank_account_id?: string;
  reference?: string | null;
}

/** The fields expand[] follows on vendor_bill (declared when the module loads, for the OpenAPI description). */
const VENDOR_BILL_EXPANSIONS = expandableFields('vendor_bill', postedDocumentFields('debit_account'));

/**
 * Minimal accounts payable: vendor bills (AP_BILL: Dr expense or inventory, Cr payables) and their
 * payments (AP_PAYMENT: Dr payables, Cr bank). The open bills are the AP subledger.
 */
@Injectable()
export class VendorBillsService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly profiles: EntityProfiles,
    private readonly bills: VendorBillRepository,
    private readonly payments: VendorBillPaymentRepository,
    private readonly accounts: LedgerAccountRepository,
    private readonly posting: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords('vendor_bill', this.bills, toVendorBill, VENDOR_BILL_EXPANSIONS);
  }

  async create(input: VendorBillInput): Promise<VendorBillResource> {
    return this.tx.run(async () => {
      const { entityId, livemode } = RequestContext.caller();
      const debit = await this.accounts.findAccount(input.debit_account_id);
      if (!debit) {
        throw new AccountingError('parameter_invalid', {
          param: 'debit_account_id',
          hint: `No ledger account with id '${input.debit_account_id}' exists.`,
        });
      }
      if (debit.controlRole === 'payables') {
        throw new AccountingError('parameter_invalid', {
          param: 'debit_account_id',
          hint: 'A bill cannot be charged to the payables account itself.',
        });
      }
      const billDate = input.bill_date ?? (await this.settings.currentBusinessDay());
      if (input.due_date && input.due_date < billDate) {
        throw new AccountingError('parameter_invalid', {
          param: 'due_date',
          hint: 'due_date must not be before bill_date.',
        });
      }
      const id = newId();
      const amount = money(String(input.amount));
      const entry = await this.posting.post({
        source_type: 'AP_BILL',
        source_id: id,
        source_module: 'accounting',
        entry_date: billDate,
        description: `Vendor bill ${input.bill_number ?? id} from ${input.vendor_name}`,
        entry_type: 'ap_bill',
        lines: [
          { account_id: debit.id, debit: amount, description: input.description ?? undefined },
          { role: 'payables', credit: amount },
        ],
      });
      await this.bills.insertBill({
        id,
        entityId,
        livemode,
        vendorName: input.vendor_name,
        billNumber: input.bill_number ?? null,
        billDate,
        dueDate: input.due_date ?? null,
        currency: input.currency ?? (await baseCurrency(this.profiles)),
        amount,
        amountPaid: money(0),
        status: 'open',
        debitAccountId: debit.id,
        description: input.description ?? null,
        journalEntryId: entry.id,
        voidedOn: null,
        voidJournalEntryId: null,
      });
      const resource = toVendorBill(await this.bills.getById(id), []);
      await this.events.publish('purchasing.vendor_bill.created', resource);
      return resource;
    });
  }

  async list(query: ListQueryDto & { status?: string }, url: string) {
    const page = await this.bills.list(query, url);
    return listEnvelope(
      page.rows.map((b) => toVendorBill(b)),
      page,
      url,
    );
  }

  async retrieve(id: string): Promise<VendorBillResource> {
    const bill = await this.bills.getById(id);
    return toVendorBill(bill, await this.paymentsOf(bill));
  }

  private paymentsOf(bill: VendorBillRecord): Promise<VendorBillPaymentRecord[]> {
    return this.payments.ofBill(bill);
  }

  async pay(id: string, input: BillPaymentInput): Promise<VendorBillResource> {
    return this.tx.run(async () => {
      const bill = await this.bills.getForUpdate(id);
      vendorBillTransition('pay', bill.status);
      const amount = money(String(input.amount));
      const due = bill.amount.minus(bill.amountPaid);
      if (amount.greaterThan(due)) {
        throw new AccountingError('amount_exceeds_limit', {
          param: 'amount',
          hint: `The payment exceeds the bill's amount due (${due.toFixed()}).`,
          details: { amount_due: toJsonNumber(due) },
        });
      }
      const paymentDate = input.payment_date ?? (await this.settings.currentBusinessDay());
      if (paymentDate < bill.billDate) {
        throw new AccountingError('parameter_invalid', {
          param: 'payment_date',
          hint: `payment_date must not be before the bill date (${bill.billDate}).`,
        });
      }
      const bank = input.bank_account_id
        ? await requireBankAccount(this.accounts, input.bank_account_id, 'bank_account_id')
        : null;
      const paymentId = newId();
      const entry = await this.posting.post({
        source_type: 'AP_PAYMENT',
        source_id: paymentId,
        source_module: 'accounting',
        entry_date: paymentDate,
        description: `Payment of vendor bill ${bill.billNumber ?? bill.id} to ${bill.vendorName}`,
        entry_type: 'ap_payment',
        lines: [
          { role: 'payables', debit: amount },
          bank ? { account_id: bank.id, credit: amount } : { role: 'cash', credit: amount },
        ],
      });
      const bankAccountId = bank?.id ?? (entry.lines ?? [])[1].account_id;
      const caller = RequestContext.caller();
      await this.payments.insertPayment({
        id: paymentId,
        entityId: caller.entityId,
        livemode: caller.livemode,
        vendorBillId: bill.id,
        amount,
        paymentDate,
        bankAccountId,
        reference: input.reference ?? null,
        journalEntryId: entry.id,
      });
      const previous = { amount_paid: toJsonNumber(bill.amountPaid), status: bill.status };
      bill.amountPaid = bill.amountPaid.plus(amount);
      bill.status = statusAfterPayment(bill, bill.amountPaid);
      const saved = await this.bills.save(bill);
      const resource = toVendorBill(saved, await this.paymentsOf(saved));
      if (isPaid(saved.status)) await this.events.publish('purchasing.vendor_bill.paid', resource, previous);
      return resource;
    });
  }

  /** Voids an unpaid bill: posts the bill's entry with sides swapped, dated the business day (or the bill date if later). */
  async void(id: string): Promise<VendorBillResource> {
    return this.tx.run(async () => {
      const bill = await this.bills.getForUpdate(id);
      const voided = vendorBillTransition('void', bill.status);
      const today = await this.settings.currentBusinessDay();
      const voidedOn = today > bill.billDate ? today : bill.billDate;
      const entry = await this.posting.post({
        source_type: 'AP_BILL',
        source_id: `void:${bill.id}`,
        source_module: 'accounting',
        entry_date: voidedOn,
        description: `Void of vendor bill ${bill.billNumber ?? bill.id} from ${bill.vendorName}`,
        entry_type: 'ap_bill_void',
        lines: [
          { role: 'payables', debit: bill.amount },
          { account_id: bill.debitAccountId, credit: bill.amount },
        ],
      });
      const previous = { status: bill.status };
      bill.status = voided;
      bill.voidedOn = voidedOn;
      bill.voidJournalEntryId = entry.id;
      const saved = await this.bills.save(bill);
      const resource = toVendorBill(saved, await this.paymentsOf(saved));
      await this.events.publish('purchasing.vendor_bill.voided', resource, previous);
      return resource;
    });
  }
}
