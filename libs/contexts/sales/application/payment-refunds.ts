import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/domain/money';
import { CREDIT_PAYMENT_METHOD } from '../domain/customer-credit';
import { isRefundable, refundAmount, statusAfterRefund } from '../domain/payment';
import { SalesError } from '../domain/sales-error';
import { OrderRecord, RefundRecord } from '../infrastructure/order.entity';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { RefundRepository } from '../infrastructure/refund.repository';
import { CustomerCreditsService } from './customer-credits.service';
import { OrdersService } from './orders.service';
import { toPaymentResource } from './payment.presenter';
import { PAYMENT_PROCESSOR, PaymentProcessor } from './ports/payment-processor.port';

/** How long a refund (of a payment or a return) may stay pending before a later request asks the processor again. */
export const PENDING_REFUND_GRACE_MS = 60_000;

/**
 * The processor's answer to one refund: `refunded` (with its reference; null when the payment
 * was never charged through the processor), `failed` (the processor refused: nothing moved), or
 * `unknown` (no answer: the refund stays pending and is asked again later with the same key).
 */
export type RefundOutcome =
  | { status: 'refunded'; reference: string | null }
  | { status: 'failed'; message: string }
  | { status: 'unknown' };

/** The idempotency key of a refund at the processor: one per refund, whoever asks. */
export const refundIdempotencyKey = (refundId: string) => `refund_${refundId}`;

/**
 * Refunds of payments in three steps, so that no database transaction waits on the payment
 * processor: `reserve` (in a transaction: the amount checked against what is left to refund,
 * counting pending refunds, and recorded `pending`), `send` (outside any transaction: the
 * processor asked with the refund's idempotency key), `complete` (in a transaction: the answer
 * recorded once; a success moves the money in the books, a failure releases the reservation).
 */
@Injectable()
export class PaymentRefunds {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly refunds: RefundRepository,
    private readonly orders: OrdersService,
    private readonly ledger: LedgerPostingService,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
    private readonly events: EventPublisher,
    private readonly credits: CustomerCreditsService,
    private readonly settings: AccountingSettingsService,
  ) {}

  /**
   * Reserves a refund of `requested` (default: all that is left) of a payment, in the caller's
   * transaction: 409 invalid_state unless the payment is succeeded or partially refunded and of
   * one invoice, 422 amount_exceeds_limit above what is neither refunded nor pending.
   */
  async reserve(
    paymentId: string,
    requested: Decimal | undefined,
    reason: string | null,
    returnId: string | null = null,
  ): Promise<RefundRecord> {
    const payment = await this.payments.getForUpdate(paymentId);
    const pending = await this.refunds.pendingTotal(payment.id);
    const amount = refundAmount(
      { ...payment, id: payment.id, amountRefunded: payment.amountRefunded.plus(pending) },
      requested,
    );
    const applications = (await this.applications.ofPayments([payment.id])).get(payment.id) ?? [];
    if (applications.length > 1)
      throw new SalesError('invalid_state', {
        hint: `Payment '${payment.id}' (status '${payment.status}') was applied to ${applications.length} invoices; only a payment of one invoice can be refunded.`,
      });
    return this.refunds.create({
      paymentId: payment.id,
      orderId: applications[0]?.orderId ?? payment.orderId,
      amount,
      currency: payment.currency,
      status: 'pending',
      reason,
      processorReference: null,
      returnId,
    });
  }

  /** Asks the processor for a reserved refund (never inside a transaction). */
  async send(refund: RefundRecord): Promise<RefundOutcome> {
    const payment = await this.payments.getById(refund.paymentId);
    if (!payment.processorReference) return { status: 'refunded', reference: null };
    try {
      const result = await this.processor.refund({
        chargeReference: payment.processorReference,
        amount: refund.amount.toFixed(2),
        currency: refund.currency,
        idempotencyKey: refundIdempotencyKey(refund.id),
      });
      return result.refunded
        ? { status: 'refunded', reference: result.reference }
        : { status: 'failed', message: result.message };
    } catch {
      return { status: 'unknown' };
    }
  }

  /**
   * Records the processor's answer to refund `refundId` in the caller's transaction, once: a
   * refund no longer pending is answered as it is. Refunded: the payment's refunded amount and
   * status, the invoice due again by the amount (`invoice`: the invoice already locked by the
   * caller), REFUND posted (cash back, or back to the customer's credit balance for a payment
   * from customer credit), payment.refunded or payment.partially_refunded. Failed: the refund is
   * `failed` and its amount free again. Unknown: it stays pending.
   */
  async complete(refundId: string, outcome: RefundOutcome, invoice?: OrderRecord): Promise<RefundRecord> {
    const seen = await this.refunds.getById(refundId);
    if (seen.status !== 'pending' || outcome.status === 'unknown') return seen;
    const order = invoice ?? (seen.orderId ? await this.orders.lockForPayment(seen.orderId) : null);
    const payment = await this.payments.getForUpdate(seen.paymentId);
    const refund = await this.refunds.getById(refundId);
    if (refund.status !== 'pending') return refund;
    if (outcome.status === 'failed') {
      refund.status = 'failed';
      return this.refunds.save(refund);
    }
    refund.status = 'succeeded';
    refund.processorReference = outcome.reference;
    await this.refunds.save(refund);
    const amount = refund.amount;
    payment.amountRefunded = payment.amountRefunded.plus(amount);
    payment.status = statusAfterRefund(payment);
    await this.payments.save(payment);
    if (order) await this.orders.applyPayment(order, money(0), amount);
    const toCredit = payment.method === CREDIT_PAYMENT_METHOD && payment.accountId !== null;
    await this.ledger.post({
      source_type: 'REFUND',
      source_id: refund.id,
      source_module: 'sales',
      entry_date: await this.settings.currentBusinessDay(),
      description: `Refund ${refund.id} of payment ${payment.id}`,
      lines: [
        {
          role: 'receivables',
          debit: amount,
          description: refund.orderId ? `Invoice ${refund.orderId}` : 'Refund',
        },
        toCredit
          ? { role: 'customer_credit', credit: amount, description: 'Back to the customer credit balance' }
          : { role: 'cash', credit: amount, description: 'Refund paid' },
      ],
    });
    if (toCredit)
      await this.credits.move(payment.accountId!, {
        type: 'payment_refund',
        amount,
        orderId: refund.orderId,
        paymentId: payment.id,
        description: `Refund ${refund.id} of payment ${payment.id}`,
      });
    const applications = (await this.applications.ofPayments([payment.id])).get(payment.id) ?? [];
    const resource = toPaymentResource(payment, applications);
    await this.events.publish(
      payment.status === 'refunded' ? 'payment.refunded' : 'payment.partially_refunded',
      resource,
      { amount_refunded: resource.amount_refunded - Number(amount.toFixed(2)) },
    );
    return refund;
  }

  /** The payment's refunds left pending longer than the grace period, not owned by a return's refund. */
  stalePendingOf(paymentId: string, now: Date = new Date()): Promise<RefundRecord[]> {
    return this.refunds.stalePendingOf(paymentId, new Date(now.getTime() - PENDING_REFUND_GRACE_MS));
  }

  /** The refunds of `ids` (a return's reserved payment refunds), in that order. */
  async byIds(ids: readonly string[]): Promise<RefundRecord[]> {
    const found = new Map((await this.refunds.findByIds(ids)).map((r) => [r.id, r]));
    return ids.map((id) => found.get(id)!).filter(Boolean);
  }

  /** What the payments of `paymentIds` have left to refund (neither refunded nor pending), keyed by payment. */
  async refundableOf(paymentIds: readonly string[]): Promise<Map<string, Decimal>> {
    const left = new Map<string, Decimal>();
    for (const payment of await this.payments.findByIds(paymentIds)) {
      if (!isRefundable(payment.status)) continue;
      const pending = await this.refunds.pendingTotal(payment.id);
      left.set(payment.id, Decimal.max(0, payment.amount.minus(payment.amountRefunded).minus(pending)));
    }
    return left;
  }
}
