import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { balanceAfter, CreditTransactionType } from '../domain/customer-credit';
import { SalesError } from '../domain/sales-error';
import { AccountRepository } from '../infrastructure/account.repository';
import { CustomerCreditRepository } from '../infrastructure/customer-credit.repository';
import { AccountsService } from './accounts.service';
import { CreditTransactionResource, toCreditTransactionResource } from './credit-transaction.presenter';

/** One movement of an account's credit balance, as its callers describe it. */
export interface CreditMovement {
  type: CreditTransactionType;
  /** Positive adds credit, negative spends it. */
  amount: Decimal;
  orderId?: string | null;
  paymentId?: string | null;
  description: string;
}

/** The fields expand[] follows on credit_transaction (declared when the module loads, for the OpenAPI description). */
const CREDIT_TRANSACTION_EXPANSIONS = expandableFields(
  'credit_transaction',
  references({ account: 'account', order: 'order', payment: 'payment' }),
);

/**
 * Customer credit: each account's balance (`accounts.credit_balance`) and the transactions that
 * move it. Every movement locks the account's row, so two movements of one account (two invoices
 * paid from its credit at once, say) run one after the other and the balance never goes below
 * zero. The caller posts the ledger entry of the movement in the same transaction.
 */
@Injectable()
export class CustomerCreditsService implements OnModuleInit {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly credits: CustomerCreditRepository,
    private readonly accountsService: AccountsService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords(
      'credit_transaction',
      this.credits,
      toCreditTransactionResource,
      CREDIT_TRANSACTION_EXPANSIONS,
    );
  }

  /** The account's credit balance, its row locked for the rest of the caller's transaction. */
  async lockBalance(accountId: string): Promise<Decimal> {
    return (await this.accounts.getForUpdate(accountId)).creditBalance;
  }

  /**
   * Moves the account's balance by `movement.amount` (refused below zero, 422
   * amount_exceeds_limit), records the transaction and emits account.updated with the previous
   * credit_balance, in the caller's transaction.
   */
  async move(accountId: string, movement: CreditMovement): Promise<CreditTransactionResource> {
    return this.tx.run(async () => {
      const account = await this.accounts.getForUpdate(accountId);
      const before = await this.accountsService.presentRecord(account);
      account.creditBalance = balanceAfter(account.creditBalance, money(movement.amount));
      const saved = await this.accounts.save(account);
      const record = await this.credits.create({
        accountId,
        type: movement.type,
        amount: money(movement.amount),
        currency: account.currency,
        orderId: movement.orderId ?? null,
        paymentId: movement.paymentId ?? null,
        endingBalance: saved.creditBalance,
        reference: movement.description,
      });
      await this.events.publish('account.updated', await this.accountsService.presentRecord(saved), {
        credit_balance: before.credit_balance,
      });
      return toCreditTransactionResource(record);
    });
  }

  async list(
    accountId: string,
    query: ListQueryDto,
    url: string,
  ): Promise<ListPage<CreditTransactionResource>> {
    await this.accounts.getById(accountId);
    const page = await this.credits.listOfAccount(accountId, query, url);
    return listEnvelope(page.rows.map(toCreditTransactionResource), page, url);
  }

  async retrieve(accountId: string, transactionId: string): Promise<CreditTransactionResource> {
    await this.accounts.getById(accountId);
    const record = await this.credits.findById(transactionId);
    if (!record || record.accountId !== accountId)
      throw new SalesError('not_found', {
        hint: `Account '${accountId}' has no credit transaction with id '${transactionId}'.`,
      });
    return toCreditTransactionResource(record);
  }
}
