import { Inject, Injectable } from '@nestjs/common';
import {
  AccountingSettingsService,
  LedgerPostingService,
  PostingLine,
  signedLine,
} from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { dueDateOf } from '../../domain/collections';
import { orderTransition } from '../../domain/order';
import { SalesError } from '../../domain/sales-error';
import { AccountRepository } from '../../infrastructure/account.repository';
import { OrderRecord } from '../../infrastructure/order.entity';
import { OrderLineRepository } from '../../infrastructure/order-line.repository';
import { OrderRepository } from '../../infrastructure/order.repository';
import { OrderChanges, settleAmounts, stateOf } from '../order-changes.service';
import { OrderResource } from '../order.presenter';
import { InvoiceRecognition, RevenueRecognition } from '../revenue-recognition.service';
import { PAYMENT_TERMS_SERVICE } from '../tokens';

/**
 * The lines of an invoice's entry under the recognition rule (docs/reference/accounting.md,
 * "Issue an invoice" and "Void an issued invoice"): receivables take the invoice total less what
 * the channel settled, unbilled receivables give up the billed units that shipping recognised,
 * revenue and tax take what the rule recognises now plus the invoice's own amounts. Signed: a
 * void's split gives the mirror lines.
 */
export function invoiceEntryLines(split: InvoiceRecognition, receivablesText: string): PostingLine[] {
  const { recognized, billed, direct } = split;
  const receivable = billed.net.plus(billed.tax).plus(direct.net).plus(direct.tax);
  const fromUnbilled = billed.net.plus(billed.tax).minus(recognized.net).minus(recognized.tax);
  const receivables = signedLine({ role: 'receivables' }, receivable, receivablesText);
  const unbilled = signedLine(
    { role: 'unbilled_receivables' },
    fromUnbilled.negated(),
    'Shipped units invoiced',
  );
  const revenue = [
    ...signedLine({ role: 'revenue' }, recognized.net.plus(direct.net).negated(), 'Revenue'),
    ...signedLine({ role: 'tax' }, recognized.tax.plus(direct.tax).negated(), 'Sales tax'),
  ];
  // Debits first: an invoice debits receivables, its void credits them.
  return receivable.gte(0)
    ? [...receivables, ...unbilled, ...revenue]
    : [...revenue, ...unbilled, ...receivables];
}

/**
 * Issue an invoice or a late-fee invoice: `POST /orders/{id}/confirm` of a draft invoice, and the
 * late fee collections charges. The draft with lines becomes confirmed and current in
 * collections, due by its account's payment terms counted from the entity's business day; the
 * recognition rule says what it bills and recognises; the INVOICE (LATE_FEE) entry is posted,
 * dated by the business day; the units the storefront import of its source order billed are
 * paid already, through the channel. Emits order.confirmed and invoice.finalized.
 */
@Injectable()
export class InvoiceOrder {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly accounts: AccountRepository,
    @Inject(PAYMENT_TERMS_SERVICE) private readonly paymentTerms: ReferenceListService,
    private readonly revenue: RevenueRecognition,
    private readonly ledger: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly changes: OrderChanges,
    private readonly events: EventPublisher,
  ) {}

  /** Issues the draft invoice `id` in a transaction of its own. */
  execute(id: string): Promise<OrderResource> {
    return this.tx.run(async () => this.issue(await this.orders.getForUpdate(id)));
  }

  /** Issues `invoice`, locked by the caller, in the caller's transaction. */
  async issue(invoice: OrderRecord): Promise<OrderResource> {
    invoice.orderStatus = orderTransition('confirm', stateOf(invoice));
    if ((await this.lines.ofOrder(invoice.id)).length === 0)
      throw new SalesError('invalid_state', {
        param: 'lines',
        hint: `An order without lines cannot be confirmed (order_status 'draft').`,
      });
    const today = await this.settings.currentBusinessDay();
    invoice.confirmedAt = new Date();
    invoice.collectionStatus = 'current';
    invoice.dueDate =
      invoice.documentType === 'invoice' ? await this.dueDate(invoice.accountId, today) : null;

    const split = await this.revenue.invoiceIssued(invoice);
    const lines = invoiceEntryLines(split, 'Invoice total');
    if (lines.length > 0)
      await this.ledger.post({
        source_type: invoice.documentType === 'late_fee_invoice' ? 'LATE_FEE' : 'INVOICE',
        source_id: invoice.id,
        source_module: 'sales',
        entry_date: today,
        description: `Invoice ${invoice.id}`,
        lines,
      });

    const settledByChannel = split.settledByChannel.net.plus(split.settledByChannel.tax);
    if (settledByChannel.gt(0)) {
      invoice.amountPaid = invoice.amountPaid.plus(settledByChannel);
      settleAmounts(invoice);
    }

    const resource = await this.changes.presentOne(await this.orders.save(invoice));
    await this.changes.publish('order.confirmed', resource, { order_status: 'draft' });
    await this.events.publish('invoice.finalized', resource);
    return resource;
  }

  /** The due date of an invoice of `accountId` issued on `today`: null when the account has no payment terms. */
  private async dueDate(accountId: string | null, today: string): Promise<string | null> {
    const account = accountId ? await this.accounts.findById(accountId) : null;
    if (!account?.paymentTermsId || !(await this.paymentTerms.exists(account.paymentTermsId))) return null;
    const terms = await this.paymentTerms.retrieve(account.paymentTermsId);
    return dueDateOf(today, Number(terms.net_days));
  }
}
