import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainError } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money, toJsonNumber } from '#platform/domain/money';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountingError } from '../domain/accounting-error';
import {
  assertMatchable,
  isMatchProblem,
  MatchProblem,
  planDepositMatch,
  UnappliedRoute,
} from '../domain/bank-deposit';
import { BankTransactionRepository } from '../infrastructure/bank-transaction.repository';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';
import { baseCurrency, requireBankAccount } from './bank-accounts';
import { LedgerPostingService, PostingLine } from './ledger-posting.service';
import { BankTransactionResource, toBankTransaction } from './bank-transaction.presenter';
import { ReceivablesRegistry } from './receivables.port';
import { postedDocumentFields } from './expand-fields';
import { ResourceReads } from '#platform/http/list/resource-reads';
import type { BankTransactionRecord } from '../infrastructure/accounting.entities';

export interface BankTransactionInput {
  bank_account_id: string;
  type: 'deposit' | 'withdrawal';
  amount: number;
  transaction_date: string;
  currency?: string;
  description?: string | null;
  reference?: string | null;
}

export interface BankTransactionFilters extends ListQueryDto {
  bank_account_id?: string;
  type?: string;
  status?: string;
  date_from?: string;
  date_to?: string;
}

export interface MatchDepositInput {
  account_id: string;
  applications: { invoice_id: string; amount: number }[];
  route_unapplied?: UnappliedRoute | null;
  reconciliation_id?: string | null;
  payment_method?: string | null;
}

function problemError(problem: MatchProblem): AccountingError {
  switch (problem.kind) {
    case 'duplicate_invoice':
      return new AccountingError('parameter_invalid', {
        param: problem.param,
        hint: `Invoice ${problem.invoiceId} is listed more than once.`,
      });
    case 'invoice_not_open':
      return new AccountingError('invoice_not_open', {
        param: problem.param,
        hint: `Invoice ${problem.invoiceId} is not an open invoice of this account (unknown, paid, voided or another account's).`,
      });
    case 'currency_mismatch':
      return new AccountingError('parameter_invalid', {
        param: problem.param,
        hint: `Invoice ${problem.invoiceId} is in ${problem.currency}, not in the deposit's currency.`,
      });
    case 'exceeds_amount_due':
      return new AccountingError('amount_exceeds_limit', {
        param: problem.param,
        hint: `The amount exceeds the amount due of invoice ${problem.invoiceId} (${problem.amountDue.toFixed()}).`,
        details: { amount_due: toJsonNumber(problem.amountDue) },
      });
    case 'exceeds_deposit':
      return new AccountingError('amount_exceeds_limit', {
        param: 'applications',
        hint: `The applications total ${problem.applied.toFixed()}, more than the deposit.`,
      });
    case 'unrouted_remainder':
      return new AccountingError('unapplied_remainder', {
        param: 'route_unapplied',
        hint: `${problem.remainder.toFixed()} of the deposit is not applied: route it with route_unapplied customer_credit or suspense.`,
        details: { unapplied_amount: toJsonNumber(problem.remainder) },
      });
  }
}

/** The fields expand[] follows on bank_transaction (declared when the module loads, for the OpenAPI description). */
const BANK_TRANSACTION_EXPANSIONS = expandableFields(
  'bank_transaction',
  postedDocumentFields('bank_account'),
);

/** Bank transactions (deposits and withdrawals of a bank ledger account) and matching deposits to invoices. */
@Injectable()
export class BankTransactionsService
  extends ResourceReads<BankTransactionRecord, ReturnType<typeof toBankTransaction>, BankTransactionFilters>
  implements OnModuleInit
{
  constructor(
    private readonly tx: TransactionHost,
    private readonly profiles: EntityProfiles,
    private readonly transactions: BankTransactionRepository,
    private readonly accounts: LedgerAccountRepository,
    private readonly posting: LedgerPostingService,
    private readonly receivables: ReceivablesRegistry,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {
    super(transactions, toBankTransaction);
  }

  onModuleInit(): void {
    this.resources.registerRecords(
      'bank_transaction',
      this.transactions,
      toBankTransaction,
      BANK_TRANSACTION_EXPANSIONS,
    );
  }

  /** Imports transactions as they appear on the statement; nothing is posted until a deposit is matched. */
  async import(
    inputs: BankTransactionInput[],
    paramPrefix: (n: number) => string,
  ): Promise<BankTransactionResource[]> {
    return this.tx.run(async () => {
      const currency = await baseCurrency(this.profiles);
      const created: BankTransactionResource[] = [];
      for (const [n, input] of inputs.entries()) {
        await requireBankAccount(this.accounts, input.bank_account_id, `${paramPrefix(n)}bank_account_id`);
        const record = await this.transactions.create({
          bankAccountId: input.bank_account_id,
          type: input.type,
          amount: money(String(input.amount)),
          currency: input.currency ?? currency,
          transactionDate: input.transaction_date,
          description: input.description ?? null,
          reference: input.reference ?? null,
          status: 'unmatched',
          matchedAt: null,
          customerAccountId: null,
          paymentId: null,
          journalEntryId: null,
          appliedAmount: null,
          unappliedAmount: null,
          routeUnapplied: null,
          reconciliationId: null,
          paymentMethod: null,
          applications: null,
        });
        created.push(toBankTransaction(record));
      }
      return created;
    });
  }

  /**
   * Matches a deposit to open invoices of one customer account: records the payment through the
   * receivables port, posts one BANK_DEPOSIT entry (Dr bank, Cr receivables for the applied total,
   * Cr customer credit or suspense for the remainder) and marks the deposit matched.
   */
  async matchDeposit(id: string, input: MatchDepositInput): Promise<BankTransactionResource> {
    return this.tx.run(async () => {
      const deposit = await this.transactions.getForUpdate(id);
      assertMatchable(deposit);
      if (!this.receivables.registered) {
        throw new DomainError('service_unavailable', {
          hint: 'Invoices are not available: no receivables provider is registered.',
        });
      }
      const port = this.receivables.port;
      const applications = input.applications.map((a) => ({
        invoiceId: a.invoice_id,
        amount: money(String(a.amount)),
      }));
      const open = await port.findOpenInvoices(input.account_id, [
        ...new Set(applications.map((a) => a.invoiceId)),
      ]);
      const plan = planDepositMatch(deposit, applications, open, input.route_unapplied ?? null);
      if (isMatchProblem(plan)) throw problemError(plan);

      const reference = deposit.reference ?? deposit.id;
      const { paymentId } = await port.recordDepositPayment({
        accountId: input.account_id,
        applications,
        paymentMethod: input.payment_method ?? null,
        reference,
      });
      const route = plan.remainder.isZero() ? null : (input.route_unapplied as UnappliedRoute);
      const lines: PostingLine[] = [
        { account_id: deposit.bankAccountId, debit: deposit.amount, description: `Deposit ${reference}` },
        { role: 'receivables', credit: plan.applied, description: `Payment ${paymentId}` },
      ];
      if (route)
        lines.push({
          role: route,
          credit: plan.remainder,
          description: `Unapplied remainder of deposit ${reference}`,
        });
      const entry = await this.posting.post({
        source_type: 'BANK_DEPOSIT',
        source_id: deposit.id,
        source_module: 'accounting',
        entry_date: deposit.transactionDate,
        description: `Bank deposit ${reference} matched to ${applications.length} invoice(s)`,
        entry_type: 'bank_deposit',
        lines,
      });
      if (route === 'customer_credit')
        await port.addCustomerCredit(input.account_id, plan.remainder, reference);

      deposit.status = 'matched';
      deposit.matchedAt = new Date();
      deposit.customerAccountId = input.account_id;
      deposit.paymentId = paymentId;
      deposit.journalEntryId = entry.id;
      deposit.appliedAmount = plan.applied;
      deposit.unappliedAmount = plan.remainder;
      deposit.routeUnapplied = route;
      deposit.reconciliationId = input.reconciliation_id ?? null;
      deposit.paymentMethod = input.payment_method ?? null;
      deposit.applications = applications.map((a) => ({
        invoice_id: a.invoiceId,
        amount: a.amount.toFixed(4),
      }));
      const resource = toBankTransaction(await this.transactions.save(deposit));
      await this.events.publish('accounting.bank_transaction.matched', resource, {
        status: 'unmatched',
        matched_at: null,
      });
      return resource;
    });
  }
}
