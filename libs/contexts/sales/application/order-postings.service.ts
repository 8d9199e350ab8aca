import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService } from '#contexts/accounting';
import { money } from '#platform/persistence/money';
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
   * What an invoice bills: its net amount and tax, split into what the fulfillment of its source
   * sales order already recognised (held in unbilled receivables since shipping) and the rest,
   * recognised now (revenue of a quantity is recognised once).
   */
  private async invoicedAmounts(
    record: OrderRecord,
  ): Promise<{ net: Decimal; tax: Decimal; recognizedNet: Decimal; recognizedTax: Decimal }> {
    const fullNet = record.subtotal.minus(record.discountTotal);
    const fullTax = record.taxTotal;
    let recognizedNet = money(0);
    let recognizedTax = money(0);
    if (record.sourceOrderId) {
      const done = await this.recognized.recognizedFor(record.sourceOrderId);
      recognizedNet = Decimal.min(fullNet, done.net);
      recognizedTax = Decimal.min(fullTax, done.tax);
    }
    return {
      net: fullNet.minus(recognizedNet),
      tax: fullTax.minus(recognizedTax),
      recognizedNet,
      recognizedTax,
    };
  }

  /**
   * INVOICE (LATE_FEE for late-fee invoices): debit receivables with the invoice total; credit
   * unbilled receivables with what shipping already recognised, revenue and tax with the rest.
   */
  async postInvoice(record: OrderRecord): Promise<void> {
    const { net, tax, recognizedNet, recognizedTax } = await this.invoicedAmounts(record);
    const unbilled = recognizedNet.plus(recognizedTax);
    const total = net.plus(tax).plus(unbilled);
    if (total.isZero()) return;
    await this.ledger.post({
      source_type: record.documentType === 'late_fee_invoice' ? 'LATE_FEE' : 'INVOICE',
      source_id: record.id,
      source_module: 'sales',
      entry_date: today(),
      description: `Invoice ${record.id}`,
      lines: [
        { role: 'receivables', debit: total, description: 'Invoice total' },
        ...(unbilled.gt(0)
          ? [
              {
                role: 'unbilled_receivables' as const,
                credit: unbilled,
                description: 'Shipped units invoiced',
              },
            ]
          : []),
        ...(net.gt(0) ? [{ role: 'revenue' as const, credit: net, description: 'Revenue' }] : []),
        ...(tax.gt(0) ? [{ role: 'tax' as const, credit: tax, description: 'Sales tax' }] : []),
      ],
    });
  }

  /** ORDER_CANCELLATION: the mirror of the invoice posting when an issued invoice is voided. */
  async postInvoiceReversal(record: OrderRecord): Promise<void> {
    const { net, tax, recognizedNet, recognizedTax } = await this.invoicedAmounts(record);
    const unbilled = recognizedNet.plus(recognizedTax);
    const total = net.plus(tax).plus(unbilled);
    if (total.isZero()) return;
    await this.ledger.post({
      source_type: 'ORDER_CANCELLATION',
      source_id: record.id,
      source_module: 'sales',
      entry_date: today(),
      description: `Void of invoice ${record.id}`,
      lines: [
        ...(net.gt(0) ? [{ role: 'revenue' as const, debit: net, description: 'Revenue reversed' }] : []),
        ...(tax.gt(0) ? [{ role: 'tax' as const, debit: tax, description: 'Sales tax reversed' }] : []),
        ...(unbilled.gt(0)
          ? [{ role: 'unbilled_receivables' as const, debit: unbilled, description: 'Back to unbilled' }]
          : []),
        { role: 'receivables', credit: total, description: 'Invoice voided' },
      ],
    });
  }
}
