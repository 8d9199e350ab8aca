import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService } from '#contexts/accounting';
import { OrderRecord } from '../infrastructure/order.entity';
import { RecognizedRevenueGateway } from './recognized-revenue.port';

const today = () => new Date().toISOString().slice(0, 10);

/** The ledger side of orders: the invoice posting and its reversal, through accounting's posting service. */
@Injectable()
export class OrderPostings {
  constructor(
    private readonly ledger: LedgerPostingService,
    private readonly recognized: RecognizedRevenueGateway,
  ) {}

  /**
   * What an invoice posts: its net amount and tax, less what the fulfillment of its source sales
   * order already recognised (revenue of a quantity is recognised once).
   */
  private async invoicedAmounts(record: OrderRecord): Promise<{ net: Decimal; tax: Decimal }> {
    let net = record.subtotal.minus(record.discountTotal);
    let tax = record.taxTotal;
    if (record.sourceOrderId) {
      const done = await this.recognized.recognizedFor(record.sourceOrderId);
      net = Decimal.max(0, net.minus(done.net));
      tax = Decimal.max(0, tax.minus(done.tax));
    }
    return { net, tax };
  }

  /** INVOICE (LATE_FEE for late-fee invoices): debit receivables, credit revenue and tax. */
  async postInvoice(record: OrderRecord): Promise<void> {
    const { net, tax } = await this.invoicedAmounts(record);
    if (net.plus(tax).isZero()) return;
    await this.ledger.post({
      source_type: record.documentType === 'late_fee_invoice' ? 'LATE_FEE' : 'INVOICE',
      source_id: record.id,
      source_module: 'sales',
      entry_date: today(),
      description: `Invoice ${record.id}`,
      lines: [
        { role: 'receivables', debit: net.plus(tax), description: 'Invoice total' },
        ...(net.gt(0) ? [{ role: 'revenue' as const, credit: net, description: 'Revenue' }] : []),
        ...(tax.gt(0) ? [{ role: 'tax' as const, credit: tax, description: 'Sales tax' }] : []),
      ],
    });
  }

  /** ORDER_CANCELLATION: the mirror of the invoice posting when an issued invoice is voided. */
  async postInvoiceReversal(record: OrderRecord): Promise<void> {
    const { net, tax } = await this.invoicedAmounts(record);
    if (net.plus(tax).isZero()) return;
    await this.ledger.post({
      source_type: 'ORDER_CANCELLATION',
      source_id: record.id,
      source_module: 'sales',
      entry_date: today(),
      description: `Void of invoice ${record.id}`,
      lines: [
        ...(net.gt(0) ? [{ role: 'revenue' as const, debit: net, description: 'Revenue reversed' }] : []),
        ...(tax.gt(0) ? [{ role: 'tax' as const, debit: tax, description: 'Sales tax reversed' }] : []),
        { role: 'receivables', credit: net.plus(tax), description: 'Invoice voided' },
      ],
    });
  }
}
