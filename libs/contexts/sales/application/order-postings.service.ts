import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import {
  AccountingSettingsService,
  LedgerPostingService,
  PostingLine,
  signedLine,
} from '#contexts/accounting';
import { OrderRecord } from '../infrastructure/order.entity';
import { InvoiceRecognition, RevenueRecognition } from './revenue-recognition.service';

/** The ledger side of orders: the invoice posting and its reversal, through accounting's posting service. */
@Injectable()
export class OrderPostings {
  constructor(
    private readonly ledger: LedgerPostingService,
    private readonly revenue: RevenueRecognition,
    private readonly settings: AccountingSettingsService,
  ) {}

  /**
   * INVOICE (LATE_FEE for late-fee invoices): receivables debited with the invoice total less
   * what the storefront import of its source order already billed (settled by the channel);
   * unbilled receivables credited with the billed units that shipping recognised; revenue and tax
   * credited with what the recognition rule recognises now plus the invoice's own amounts beyond
   * its order-line units (docs/reference/accounting.md). Answers the part settled by the channel,
   * which the invoice records as paid.
   */
  async postInvoice(record: OrderRecord): Promise<Decimal> {
    const split = await this.revenue.invoiceIssued(record);
    const lines = this.invoiceLines(split, 'Invoice total');
    if (lines.length > 0)
      await this.ledger.post({
        source_type: record.documentType === 'late_fee_invoice' ? 'LATE_FEE' : 'INVOICE',
        source_id: record.id,
        source_module: 'sales',
        entry_date: await this.settings.currentBusinessDay(),
        description: `Invoice ${record.id}`,
        lines,
      });
    return split.settledByChannel.net.plus(split.settledByChannel.tax);
  }

  /** ORDER_CANCELLATION: the void of an issued invoice, reversing its billing under the rule. */
  async postInvoiceReversal(record: OrderRecord): Promise<void> {
    const split = await this.revenue.invoiceVoided(record);
    const lines = this.invoiceLines(split, 'Invoice voided');
    if (lines.length === 0) return;
    await this.ledger.post({
      source_type: 'ORDER_CANCELLATION',
      source_id: record.id,
      source_module: 'sales',
      entry_date: await this.settings.currentBusinessDay(),
      description: `Void of invoice ${record.id}`,
      lines,
    });
  }

  /** The lines of an invoice (signed amounts: a void gives the mirror lines). */
  private invoiceLines(split: InvoiceRecognition, receivablesText: string): PostingLine[] {
    const { recognized, billed, direct } = split;
    // The invoice total less what the channel settled: its billed units' value plus its own amounts.
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
}
