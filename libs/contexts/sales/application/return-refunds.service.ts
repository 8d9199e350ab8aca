import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { isInvoiceType, isIssuedStatus } from '../domain/order';
import { SalesError } from '../domain/sales-error';
import { CustomerCreditRepository } from '../infrastructure/customer-credit.repository';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { OrdersService } from './orders.service';
import { PaymentsService } from './payments.service';

const today = () => new Date().toISOString().slice(0, 10);

export type ReturnRefundMethod = 'original_payment' | 'customer_credit';

export interface ReturnRefundRequest {
  /** The refund's own id: the source of its CREDIT_MEMO and CREDIT_APPLIED entries. */
  refundId: string;
  returnId: string;
  invoiceId: string;
  /** The amount refunded, and the credit memo's: its net and tax parts. */
  amount: Decimal;
  net: Decimal;
  tax: Decimal;
  method: ReturnRefundMethod;
  reason: string | null;
}

/**
 * The money side of a return's refund, for the fulfillment context: a credit memo on the
 * invoice (CREDIT_MEMO: debit revenue and tax, credit receivables), then the money back through
 * the invoice's payments (their processor, REFUND each) or as a credit on the customer's account
 * (CREDIT_APPLIED: debit receivables, credit customer credits). The invoice's amount due does not
 * move (what it bills and what was paid drop alike), so receivables stay equal to the open
 * invoices. The return document records the refund.
 */
@Injectable()
export class ReturnRefunds {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentsService,
    private readonly paymentRecords: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly credits: CustomerCreditRepository,
    private readonly ledger: LedgerPostingService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
  ) {}

  /** The invoice issued for a sales order (converted from it and not a draft, cancelled or voided), or null. */
  async issuedInvoiceOf(salesOrderId: string): Promise<{ id: string; amountPaid: Decimal } | null> {
    const order = await this.orders.retrieve(salesOrderId);
    if (!order.converted_to_id) return null;
    const invoice = await this.orders.retrieve(order.converted_to_id);
    if (!isInvoiceType(invoice.document_type) || !isIssuedStatus(invoice.order_status)) return null;
    return { id: invoice.id, amountPaid: money(invoice.amount_paid) };
  }

  /** Runs the refund in the caller's transaction; answers the ids of the payment refunds made. */
  async refund(request: ReturnRefundRequest): Promise<{ refundIds: string[] }> {
    return this.tx.run(async () => {
      const invoice = await this.orders.lockForPayment(request.invoiceId);
      if (request.amount.gt(invoice.amountPaid))
        throw new SalesError('amount_exceeds_limit', {
          param: 'amount',
          hint: `Invoice '${invoice.id}' has ${invoice.amountPaid.toFixed(2)} paid and not refunded; a refund cannot exceed it.`,
        });
      await this.ledger.post({
        source_type: 'CREDIT_MEMO',
        source_id: request.refundId,
        source_module: 'sales',
        entry_date: today(),
        description: `Credit memo of return ${request.returnId} on invoice ${invoice.id}`,
        lines: [
          ...(request.net.gt(0)
            ? [{ role: 'revenue' as const, debit: request.net, description: 'Revenue of the returned units' }]
            : []),
          ...(request.tax.gt(0)
            ? [{ role: 'tax' as const, debit: request.tax, description: 'Sales tax of the returned units' }]
            : []),
          { role: 'receivables', credit: request.amount, description: `Invoice ${invoice.id}` },
        ],
      });
      const refundIds =
        request.method === 'original_payment'
          ? await this.throughPayments(invoice.id, request)
          : await this.asCustomerCredit(invoice.accountId!, invoice.id, request);
      const credited = await this.orders.applyCredit(
        await this.orders.lockForPayment(invoice.id),
        request.amount,
      );
      await this.events.publish('invoice.updated', credited.resource, credited.previous);
      const returned = await this.orders.applyCredit(
        await this.orders.lockForPayment(request.returnId),
        request.amount,
      );
      await this.events.publish('order.updated', returned.resource, returned.previous);
      return { refundIds };
    });
  }

  /** Refunds the amount from the invoice's payments, newest first, each through its processor. */
  private async throughPayments(invoiceId: string, request: ReturnRefundRequest): Promise<string[]> {
    const applied = (await this.applications.ofOrders([invoiceId])).get(invoiceId) ?? [];
    const payments = (await this.paymentRecords.findByIds(applied.map((a) => a.paymentId)))
      .filter((p) => p.status === 'succeeded' || p.status === 'partially_refunded')
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    let left = request.amount;
    const refundIds: string[] = [];
    for (const payment of payments) {
      if (left.lte(0)) break;
      const chunk = Decimal.min(left, payment.amount.minus(payment.amountRefunded));
      if (chunk.lte(0)) continue;
      const refund = await this.payments.refund(payment.id, {
        amount: chunk.toNumber(),
        reason: request.reason ?? `Return ${request.returnId}`,
      });
      refundIds.push(refund.id);
      left = left.minus(chunk);
    }
    if (left.gt(0))
      throw new SalesError('amount_exceeds_limit', {
        param: 'amount',
        hint: `The payments of invoice '${invoiceId}' have ${request.amount.minus(left).toFixed(2)} left to refund.`,
      });
    return refundIds;
  }

  /** Moves the amount from the invoice's payments to a credit balance of the customer. */
  private async asCustomerCredit(
    accountId: string,
    invoiceId: string,
    request: ReturnRefundRequest,
  ): Promise<string[]> {
    await this.ledger.post({
      source_type: 'CREDIT_APPLIED',
      source_id: request.refundId,
      source_module: 'sales',
      entry_date: today(),
      description: `Credit of return ${request.returnId} to the customer's account`,
      lines: [
        { role: 'receivables', debit: request.amount, description: `Invoice ${invoiceId}` },
        { role: 'customer_credit', credit: request.amount, description: 'Customer credit balance' },
      ],
    });
    await this.credits.create({ accountId, amount: request.amount, reference: `return ${request.returnId}` });
    await this.orders.applyPayment(
      await this.orders.lockForPayment(invoiceId),
      request.amount.negated(),
      money(0),
    );
    return [];
  }
}
