import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import {
  CreditMemoRequest,
  CreditMemoReservation,
  CreditMemos,
  PENDING_REFUND_GRACE_MS,
  RefundOutcome,
  ReturnRefundMethod,
} from '#contexts/sales';
import { FulfillmentError } from '../../domain/fulfillment-error';
import {
  returnTransition,
  refundAmountOf,
  splitNetAndTax,
  statusAfterRefund,
} from '../../domain/return-authorization';
import { PendingReturnRefund, ReturnAuthorizationRecord } from '../../infrastructure/fulfillment.entities';
import { PackageRepository } from '../../infrastructure/package.repository';
import { ReturnAuthorizationRepository } from '../../infrastructure/return-authorization.repository';
import { ReturnResource, toReturnResource } from './return.presenter';

export interface RefundReturnInput {
  amount?: number;
  method?: ReturnRefundMethod;
}

/** What recording the processor's answers came to. */
type Recorded =
  | { kind: 'refunded'; resource: ReturnResource }
  | { kind: 'refused'; pendingId: string }
  | { kind: 'pending'; pendingId: string };

/**
 * POST /returns/{id}/refund: refunds the value of the units received back (default: all of it
 * not refunded yet, at most what the order's invoice still has due or paid) as a credit memo on
 * the invoice that first reduces its amount due, then the paid rest back through its payments or
 * as a credit on the customer's account. The payment processor is never called inside a
 * transaction:
 *
 * 1. A refund of this return left pending longer than the grace period is finished first.
 * 2. Transaction one: the return and its order locked, the amount worked out and reserved (the
 *    return's pending refund, and one pending payment refund per payment to pay back through).
 *    Without a payment refund to make the credit memo is posted in this same transaction.
 * 3. No transaction: the processor is asked for each payment refund, with the refund's key.
 * 4. Transaction two: the answers recorded once. All made: the credit memo posted, the return
 *    refunded (return.refunded). One refused: no credit memo, the reservation released (503).
 *    One unanswered: everything stays pending for step 1 of a later request (503).
 */
@Injectable()
export class RefundReturn {
  constructor(
    private readonly tx: TransactionHost,
    private readonly returns: ReturnAuthorizationRepository,
    private readonly packages: PackageRepository,
    private readonly creditMemos: CreditMemos,
    private readonly events: EventPublisher,
  ) {}

  async refund(id: string, input: RefundReturnInput): Promise<ReturnResource> {
    await this.finishStale(id);
    const reserved = await this.tx.run(async () => {
      const pending = await this.reserve(id, input);
      if (pending.refund_ids.length) return pending;
      return this.record(id, pending.id, new Map());
    });
    if (!('kind' in reserved)) {
      const outcomes = await this.creditMemos.sendRefunds(reserved.refund_ids);
      return this.answer(await this.tx.run(() => this.record(id, reserved.id, outcomes)));
    }
    return this.answer(reserved);
  }

  /** Finishes a refund of the return whose processor answers were lost (asked again with the same keys). */
  private async finishStale(id: string): Promise<void> {
    const pending = (await this.returns.findById(id))?.pendingRefund;
    if (!pending || Date.parse(pending.created_at) > Date.now() - PENDING_REFUND_GRACE_MS) return;
    const outcomes = await this.creditMemos.sendRefunds(pending.refund_ids);
    await this.tx.run(() => this.record(id, pending.id, outcomes));
  }

  /** Transaction one: checks the refund, works out its amount and reserves it. */
  private async reserve(id: string, input: RefundReturnInput): Promise<PendingReturnRefund> {
    const record = await this.returns.getForUpdate(id);
    returnTransition('refund', record.status, record.id);
    // Serialises with the order's other returns: their credit memos take from the same invoice.
    await this.packages.lockOrder(record.orderId);
    const busy = [record, ...(await this.returns.ofOrder(record.orderId))].find((r) => r.pendingRefund);
    if (busy)
      throw new FulfillmentError('invalid_state', {
        hint: `Refund '${busy.pendingRefund!.id}' of return '${busy.id}' is waiting for the payment processor; refund return '${record.id}' once it is answered.`,
      });
    const invoice = await this.creditMemos.issuedInvoiceOf(record.orderId);
    if (!invoice)
      throw new FulfillmentError('invalid_state', {
        hint: `Order '${record.orderId}' of return '${record.id}' has no issued invoice, so nothing was paid to refund.`,
      });
    const received = { net: record.receivedNet, tax: record.receivedTax };
    // What a credit memo can take back: the received units the invoice still bills (sales' rule);
    // units that came back before being billed had their revenue reversed at receipt.
    const plan = await this.creditMemos.creditablePlan(
      record.orderId,
      record.lines.map((l) => ({ orderLineId: l.order_item_id, units: l.received_quantity })),
      record.refunds.map((r) => r.id),
    );
    const amount = refundAmountOf(
      input.amount === undefined ? undefined : money(input.amount),
      {
        value: plan.value.net.plus(plan.value.tax).plus(plan.earlierReversed),
        refunded: record.amountRefunded,
      },
      invoice.creditable,
    );
    const { net, tax } = splitNetAndTax(
      amount,
      plan.value.net.plus(plan.value.tax).gt(0) ? plan.value : received,
    );
    const request: CreditMemoRequest = {
      refundId: newId(),
      returnId: record.id,
      invoiceId: invoice.id,
      orderId: record.orderId,
      creditable: plan.units,
      earlierAllowance: Decimal.max(0, record.amountRefunded.minus(plan.earlierReversed)),
      amount,
      net,
      tax,
      method: input.method ?? 'original_payment',
      reason: record.reason,
    };
    const reservation = await this.creditMemos.reserve(request);
    record.pendingRefund = toPending(request, reservation);
    await this.returns.save(record);
    return record.pendingRefund;
  }

  /** Transaction two (or the end of one): records the answers for the pending refund `pendingId`, once. */
  private async record(
    id: string,
    pendingId: string,
    outcomes: ReadonlyMap<string, RefundOutcome>,
  ): Promise<Recorded> {
    const record = await this.returns.getForUpdate(id);
    const pending = record.pendingRefund;
    // Recorded already (by a retry or a later request): answer the return as it is.
    if (!pending || pending.id !== pendingId) return { kind: 'refunded', resource: toReturnResource(record) };
    const answers = pending.refund_ids.map((r) => outcomes.get(r)?.status ?? 'unknown');
    if (answers.includes('unknown')) return { kind: 'pending', pendingId };
    const { request, reservation } = fromPending(record, pending);
    record.pendingRefund = null;
    if (answers.includes('failed')) {
      await this.creditMemos.release(reservation, outcomes);
      await this.returns.save(record);
      return { kind: 'refused', pendingId };
    }
    const settled = await this.creditMemos.post(request, reservation, outcomes);
    const now = new Date();
    record.amountRefunded = record.amountRefunded.plus(request.amount);
    record.refunds = [
      ...record.refunds,
      {
        id: request.refundId,
        amount: request.amount.toFixed(4),
        method: request.method,
        invoice_id: request.invoiceId,
        refund_ids: settled.refundIds,
        amount_due_reduced: settled.amountDueReduced.toFixed(4),
        credit_transaction_id: settled.creditTransactionId,
        created_at: now.toISOString(),
      },
    ];
    record.status = statusAfterRefund(
      record,
      record.receivedNet.plus(record.receivedTax),
      record.amountRefunded,
    );
    if (record.status === 'refunded') record.refundedAt = now;
    const resource = toReturnResource(await this.returns.save(record));
    await this.events.publish('return.refunded', resource);
    return { kind: 'refunded', resource };
  }

  private answer(recorded: Recorded): ReturnResource {
    if (recorded.kind === 'refunded') return recorded.resource;
    throw new FulfillmentError('service_unavailable', {
      hint:
        recorded.kind === 'refused'
          ? `The payment processor refused a payment refund of return refund '${recorded.pendingId}'; no credit memo was posted and the amount is free again (a payment refund the processor made stays a refund of its payment).`
          : `The payment processor did not answer; return refund '${recorded.pendingId}' stays pending and is finished by a refund request of this return made after ${PENDING_REFUND_GRACE_MS / 1000} seconds.`,
      details: { refund_id: recorded.pendingId },
    });
  }
}

const toPending = (request: CreditMemoRequest, reservation: CreditMemoReservation): PendingReturnRefund => ({
  id: request.refundId,
  invoice_id: request.invoiceId,
  amount: request.amount.toString(),
  net: request.net.toString(),
  tax: request.tax.toString(),
  method: request.method,
  creditable: request.creditable.map((u) => ({
    order_line_id: u.orderLineId,
    units: money(u.units).toString(),
  })),
  earlier_allowance: request.earlierAllowance.toString(),
  amount_due_reduced: reservation.amountDueReduced.toString(),
  paid_back: reservation.paidBack.toString(),
  refund_ids: reservation.refundIds,
  created_at: new Date().toISOString(),
});

const fromPending = (record: ReturnAuthorizationRecord, p: PendingReturnRefund) => ({
  request: {
    refundId: p.id,
    returnId: record.id,
    invoiceId: p.invoice_id,
    orderId: record.orderId,
    creditable: p.creditable.map((u) => ({ orderLineId: u.order_line_id, units: money(u.units) })),
    earlierAllowance: money(p.earlier_allowance),
    amount: money(p.amount),
    net: money(p.net),
    tax: money(p.tax),
    method: p.method,
    reason: record.reason,
  } satisfies CreditMemoRequest,
  reservation: {
    amountDueReduced: money(p.amount_due_reduced),
    paidBack: money(p.paid_back),
    refundIds: p.refund_ids,
  } satisfies CreditMemoReservation,
});
