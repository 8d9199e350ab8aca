import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService, signedLine } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/persistence/money';
import { creditMemoSettlement } from '../domain/customer-credit';
import { isInvoiceType, isIssuedStatus } from '../domain/order';
import { SalesError } from '../domain/sales-error';
import { OrderRecord } from '../infrastructure/order.entity';
import { OrderRepository } from '../infrastructure/order.repository';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { CustomerCreditsService } from './customer-credits.service';
import { OrdersService } from './orders.service';
import { PaymentRefunds, RefundOutcome } from './payment-refunds';
import { LineUnits, RevenueRecognition } from './revenue-recognition.service';

export type ReturnRefundMethod = 'original_payment' | 'customer_credit';

export interface CreditMemoRequest {
  /** The return refund's own id: the source of its CREDIT_MEMO and CREDIT_APPLIED entries. */
  refundId: string;
  returnId: string;
  invoiceId: string;
  /** The sales order returned from. */
  orderId: string;
  /** The returned units the credit memo may take back (CreditablePlan.units), in order. */
  creditable: readonly LineUnits[];
  /** What earlier refunds of the return gave as allowance (refunded beyond the value they reversed). */
  earlierAllowance: Decimal;
  /** The amount refunded, and the credit memo's: its net and tax parts. */
  amount: Decimal;
  net: Decimal;
  tax: Decimal;
  method: ReturnRefundMethod;
  reason: string | null;
}

/** What a return's next credit memo can take back under revenue recognition. */
export interface CreditablePlan {
  /** Per order line, the received units still billed and not credited by an earlier refund. */
  units: LineUnits[];
  /** Their value (net and tax): what reversing them takes off revenue and tax. */
  value: { net: Decimal; tax: Decimal };
  /** What earlier refunds of the return reversed this way (net plus tax). */
  earlierReversed: Decimal;
}

/** How a credit memo settles its invoice, decided when it is reserved. */
export interface CreditMemoReservation {
  /** The part that only reduces the invoice's amount due. */
  amountDueReduced: Decimal;
  /** The part paid back to the customer. */
  paidBack: Decimal;
  /** The payment refunds reserved (`pending`) for the paid-back part (original_payment), newest payment first. */
  refundIds: string[];
}

/** How a return's credit memo was settled. */
export interface CreditMemoResult {
  /** The payment refunds made (original_payment). */
  refundIds: string[];
  /** The part of the credit memo that only reduced the invoice's amount due. */
  amountDueReduced: Decimal;
  /** The credit transaction that put the paid part on the customer's balance (customer_credit). */
  creditTransactionId: string | null;
}

/**
 * Credit memos of returns, sales' side of a return's refund: a credit memo on the invoice
 * (CREDIT_MEMO: debit revenue and tax, credit receivables) that first reduces what the invoice
 * still has due; only the rest, what was paid for the credited units, goes back to the customer,
 * through the invoice's payments (payment refunds, REFUND each) or as a credit on the customer's
 * account (CREDIT_APPLIED: debit receivables, credit customer credits). The invoice's amount due
 * drops by the first part and not by the second (what it bills and what was paid drop alike), so
 * receivables stay equal to the open invoices. The return document records the refund.
 *
 * In three steps around the payment processor: `reserve` (the settlement decided, the payment
 * refunds reserved), `sendRefunds` (outside any transaction), then `post` or `release`.
 */
@Injectable()
export class CreditMemos {
  constructor(
    private readonly orders: OrdersService,
    private readonly orderRecords: OrderRepository,
    private readonly paymentRefunds: PaymentRefunds,
    private readonly paymentRecords: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly credits: CustomerCreditsService,
    private readonly ledger: LedgerPostingService,
    private readonly events: EventPublisher,
    private readonly settings: AccountingSettingsService,
    private readonly revenue: RevenueRecognition,
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

  /**
   * What the next credit memo of a return can take back: of the units `received` per order line,
   * those earlier refunds (`earlierRefundIds`) did not credit, as far as their line still bills
   * them (billed beyond what stays shipped), with their value under the recognition rule.
   */
  async creditablePlan(
    orderId: string,
    received: readonly LineUnits[],
    earlierRefundIds: readonly string[],
  ): Promise<CreditablePlan> {
    const earlier = await this.revenue.creditedBy(earlierRefundIds);
    const open = received.map((r) => ({
      orderLineId: r.orderLineId,
      units: Decimal.max(0, money(r.units).minus(earlier.units.get(r.orderLineId) ?? 0)),
    }));
    const { units, value } = await this.revenue.creditable(orderId, open);
    return { units, value, earlierReversed: earlier.value };
  }

  /**
   * Decides how the credit memo settles the invoice and, for a paid-back part through the
   * payments (`original_payment`), reserves one payment refund per payment, newest first, in the
   * caller's transaction. 409 invalid_state when the invoice's payments cannot refund the
   * paid-back part (the rest was settled by the sales channel of an imported order).
   */
  async reserve(request: CreditMemoRequest): Promise<CreditMemoReservation> {
    const invoice = await this.orderRecords.getById(request.invoiceId);
    const { amountDueReduced, paidBack } = creditMemoSettlement(request.amount, invoice);
    if (paidBack.lte(0) || request.method !== 'original_payment')
      return { amountDueReduced, paidBack, refundIds: [] };
    const payments = await this.paymentsOf(invoice.id);
    const left = await this.paymentRefunds.refundableOf(payments);
    const refundable = [...left.values()].reduce((sum, v) => sum.plus(v), money(0));
    // What is paid beyond the invoice's payments was settled by the sales channel of its
    // imported order: that money is with the channel, no payment of ours can give it back.
    if (paidBack.gt(refundable))
      throw new SalesError('invalid_state', {
        hint: `Invoice '${invoice.id}' has ${refundable.toFixed(2)} paid through its payments; the rest of the ${paidBack.toFixed(2)} to pay back was settled by the sales channel of its imported order and cannot be refunded to a payment. Refund it with method customer_credit, or refund it in the channel.`,
      });
    const refundIds: string[] = [];
    let rest = paidBack;
    for (const paymentId of payments) {
      const chunk = Decimal.min(rest, left.get(paymentId) ?? 0);
      if (chunk.lte(0)) continue;
      const refund = await this.paymentRefunds.reserve(
        paymentId,
        chunk,
        request.reason ?? `Return ${request.returnId}`,
        request.returnId,
      );
      refundIds.push(refund.id);
      rest = rest.minus(chunk);
      if (rest.lte(0)) break;
    }
    return { amountDueReduced, paidBack, refundIds };
  }

  /** Asks the processor for each reserved payment refund (never inside a transaction). */
  async sendRefunds(refundIds: readonly string[]): Promise<Map<string, RefundOutcome>> {
    const outcomes = new Map<string, RefundOutcome>();
    for (const refund of await this.paymentRefunds.byIds(refundIds))
      outcomes.set(refund.id, await this.paymentRefunds.send(refund));
    return outcomes;
  }

  /**
   * Posts the credit memo once every reserved payment refund was made, in the caller's
   * transaction, with the invoice locked once: the revenue of the units taken back reversed, the
   * payment refunds recorded or the paid-back part moved to the customer's credit, the invoice
   * and the return document credited (invoice.updated, order.updated).
   */
  async post(
    request: CreditMemoRequest,
    reservation: CreditMemoReservation,
    outcomes: ReadonlyMap<string, RefundOutcome>,
  ): Promise<CreditMemoResult> {
    const invoice = await this.orders.lockForPayment(request.invoiceId);
    // The units taken back (as many whole ones as this memo and the earlier allowances of the
    // return cover) reverse exactly what was recognised for them; the rest of the memo is an
    // allowance on the invoice's price, taken off revenue and tax in the memo's proportion
    // (negative when units now taken back were paid for by an earlier allowance).
    const reversed = await this.revenue.credited(
      request.orderId,
      request.refundId,
      request.creditable,
      request.amount.plus(request.earlierAllowance),
    );
    const allowance = { net: request.net.minus(reversed.net), tax: request.tax.minus(reversed.tax) };
    await this.ledger.post({
      source_type: 'CREDIT_MEMO',
      source_id: request.refundId,
      source_module: 'sales',
      entry_date: await this.settings.currentBusinessDay(),
      description: `Credit memo of return ${request.returnId} on invoice ${invoice.id}`,
      lines: [
        ...signedLine({ role: 'revenue' }, reversed.net, 'Revenue of the returned units'),
        ...signedLine({ role: 'tax' }, reversed.tax, 'Sales tax of the returned units'),
        ...signedLine({ role: 'revenue' }, allowance.net, 'Allowance on the invoice'),
        ...signedLine({ role: 'tax' }, allowance.tax, 'Sales tax of the allowance'),
        { role: 'receivables', credit: request.amount, description: `Invoice ${invoice.id}` },
      ],
    });
    for (const id of reservation.refundIds)
      await this.paymentRefunds.complete(id, outcomes.get(id) ?? { status: 'unknown' }, invoice);
    let creditTransactionId: string | null = null;
    if (reservation.paidBack.gt(0) && request.method === 'customer_credit')
      creditTransactionId = await this.asCustomerCredit(invoice, request, reservation.paidBack);
    const credited = await this.orders.applyCredit(invoice, request.amount);
    await this.events.publish('invoice.updated', credited.resource, credited.previous);
    const returned = await this.orders.applyCredit(
      await this.orders.lockForPayment(request.returnId),
      request.amount,
    );
    await this.events.publish('order.updated', returned.resource, returned.previous);
    return {
      refundIds: reservation.refundIds,
      amountDueReduced: reservation.amountDueReduced,
      creditTransactionId,
    };
  }

  /**
   * When a payment refund of the credit memo was refused: no credit memo. Each reserved payment
   * refund is recorded as it ended (one the processor made stays a refund of its payment, the
   * invoice due again by it; a refused one is `failed` and its amount free again).
   */
  async release(reservation: CreditMemoReservation, outcomes: ReadonlyMap<string, RefundOutcome>) {
    const refunds = await this.paymentRefunds.byIds(reservation.refundIds);
    const invoiceId = refunds.find((r) => r.orderId)?.orderId;
    const invoice = invoiceId ? await this.orders.lockForPayment(invoiceId) : undefined;
    for (const refund of refunds)
      await this.paymentRefunds.complete(
        refund.id,
        outcomes.get(refund.id) ?? { status: 'unknown' },
        invoice,
      );
  }

  /** The invoice's payments, newest first. */
  private async paymentsOf(invoiceId: string): Promise<string[]> {
    const applied = (await this.applications.ofOrders([invoiceId])).get(invoiceId) ?? [];
    return (await this.paymentRecords.findByIds(applied.map((a) => a.paymentId)))
      .map((p) => p.id)
      .sort((a, b) => (a < b ? 1 : -1));
  }

  /** Moves `amount` from the invoice's payments to the customer's credit balance; answers the credit transaction's id. */
  private async asCustomerCredit(
    invoice: OrderRecord,
    request: CreditMemoRequest,
    amount: Decimal,
  ): Promise<string> {
    await this.ledger.post({
      source_type: 'CREDIT_APPLIED',
      source_id: request.refundId,
      source_module: 'sales',
      entry_date: await this.settings.currentBusinessDay(),
      description: `Credit of return ${request.returnId} to the customer's account`,
      lines: [
        { role: 'receivables', debit: amount, description: `Invoice ${invoice.id}` },
        { role: 'customer_credit', credit: amount, description: 'Customer credit balance' },
      ],
    });
    const credit = await this.credits.move(invoice.accountId!, {
      type: 'return_credit',
      amount,
      orderId: invoice.id,
      description: `return ${request.returnId}`,
    });
    await this.orders.applyPayment(invoice, amount.negated(), money(0));
    return credit.id;
  }
}
