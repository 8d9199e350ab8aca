import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { creditMemoSettlement } from '../domain/customer-credit';
import { isInvoiceType, isIssuedStatus } from '../domain/order';
import { SalesError } from '../domain/sales-error';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { CustomerCreditsService } from './customer-credits.service';
import { OrdersService } from './orders.service';
import { PaymentsService } from './payments.service';

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

/** How a return's credit memo was settled. */
export interface ReturnRefundResult {
  /** The payment refunds made (original_payment). */
  refundIds: string[];
  /** The part of the credit memo that only reduced the invoice's amount due. */
  amountDueReduced: Decimal;
  /** The credit transaction that put the paid part on the customer's balance (customer_credit). */
  creditTransactionId: string | null;
}

/**
 * The money side of a return's refund, for the fulfillment context: a credit memo on the
 * invoice (CREDIT_MEMO: debit revenue and tax, credit receivables) that first reduces what the
 * invoice still has due; only the rest, what was paid for the credited units, goes back to the
 * customer, through the invoice's payments (their processor, REFUND each) or as a credit on the
 * customer's account (CREDIT_APPLIED: debit receivables, credit customer credits). The invoice's
 * amount due drops by the first part and not by the second (what it bills and what was paid drop
 * alike), so receivables stay equal to the open invoices. The return document records the refund.
 */
@Injectable()
export class ReturnRefunds {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentsService,
    private readonly paymentRecords: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly credits: CustomerCreditsService,
    private readonly ledger: LedgerPostingService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly settings: AccountingSettingsService,
  ) {}

  /**
   * The invoice issued for a sales order (converted from it and not a draft, cancelled or
   * voided), with what a credit memo can still take off it (its amount due and what it has paid
   * and not refunded), or null.
   */
  async issuedInvoiceOf(
    salesOrderId: string,
  ): Promise<{ id: string; amountPaid: Decimal; amountDue: Decimal; creditable: Decimal } | null> {
    const order = await this.orders.retrieve(salesOrderId);
    if (!order.converted_to_id) return null;
    const invoice = await this.orders.retrieve(order.converted_to_id);
    if (!isInvoiceType(invoice.document_type) || !isIssuedStatus(invoice.order_status)) return null;
    const amountPaid = money(invoice.amount_paid);
    const amountDue = money(invoice.amount_due);
    return { id: invoice.id, amountPaid, amountDue, creditable: amountPaid.plus(amountDue) };
  }

  /** Runs the refund in the caller's transaction; answers how the credit memo was settled. */
  async refund(request: ReturnRefundRequest): Promise<ReturnRefundResult> {
    return this.tx.run(async () => {
      const invoice = await this.orders.lockForPayment(request.invoiceId);
      const { amountDueReduced, paidBack } = creditMemoSettlement(request.amount, invoice);
      await this.ledger.post({
        source_type: 'CREDIT_MEMO',
        source_id: request.refundId,
        source_module: 'sales',
        entry_date: await this.settings.currentBusinessDay(),
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
      let refundIds: string[] = [];
      let creditTransactionId: string | null = null;
      if (paidBack.gt(0) && request.method === 'original_payment')
        refundIds = await this.throughPayments(invoice.id, request, paidBack);
      else if (paidBack.gt(0))
        creditTransactionId = await this.asCustomerCredit(invoice.accountId!, invoice.id, request, paidBack);
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
      return { refundIds, amountDueReduced, creditTransactionId };
    });
  }

  /** Refunds `amount` from the invoice's payments, newest first, each through its processor. */
  private async throughPayments(
    invoiceId: string,
    request: ReturnRefundRequest,
    amount: Decimal,
  ): Promise<string[]> {
    const applied = (await this.applications.ofOrders([invoiceId])).get(invoiceId) ?? [];
    const payments = (await this.paymentRecords.findByIds(applied.map((a) => a.paymentId)))
      .filter((p) => p.status === 'succeeded' || p.status === 'partially_refunded')
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    let left = amount;
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
        hint: `The payments of invoice '${invoiceId}' have ${amount.minus(left).toFixed(2)} left to refund.`,
      });
    return refundIds;
  }

  /** Moves `amount` from the invoice's payments to the customer's credit balance; answers the credit transaction's id. */
  private async asCustomerCredit(
    accountId: string,
    invoiceId: string,
    request: ReturnRefundRequest,
    amount: Decimal,
  ): Promise<string> {
    await this.ledger.post({
      source_type: 'CREDIT_APPLIED',
      source_id: request.refundId,
      source_module: 'sales',
      entry_date: await this.settings.currentBusinessDay(),
      description: `Credit of return ${request.returnId} to the customer's account`,
      lines: [
        { role: 'receivables', debit: amount, description: `Invoice ${invoiceId}` },
        { role: 'customer_credit', credit: amount, description: 'Customer credit balance' },
      ],
    });
    const credit = await this.credits.move(accountId, {
      type: 'return_credit',
      amount,
      orderId: invoiceId,
      description: `return ${request.returnId}`,
    });
    await this.orders.applyPayment(await this.orders.lockForPayment(invoiceId), amount.negated(), money(0));
    return credit.id;
  }
}
