import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { initialMetadata } from '#platform/domain/metadata';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { DocumentType, OrderStatus, orderTransition } from '../domain/order';
import { CREDIT_PAYMENT_METHOD, creditApplicationAmount } from '../domain/customer-credit';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import { OrderRecord, PaymentRecord } from '../infrastructure/order.entity';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { RefundRepository } from '../infrastructure/refund.repository';
import { PaymentMethodRepository } from '../infrastructure/payment-method.repository';
import { CustomerCreditsService } from './customer-credits.service';
import { OrdersService } from './orders.service';
import { PaymentRefunds, PENDING_REFUND_GRACE_MS } from './payment-refunds';
import { PaymentResource, RefundResource, toPaymentResource, toRefundResource } from './payment.presenter';
import { CardDetails, PAYMENT_PROCESSOR, PaymentProcessor } from './ports/payment-processor.port';

export const PAYMENT_METHODS_ACCEPTED = [
  'card',
  'payment_method',
  'cash',
  'check',
  'bank_transfer',
  CREDIT_PAYMENT_METHOD,
] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHODS_ACCEPTED)[number];

export interface PaymentInput {
  amount?: number;
  method: PaymentMethodKind;
  card?: CardDetails;
  payment_method_id?: string;
  reference?: string | null;
  metadata?: Record<string, string>;
}

export interface PaymentListQuery extends ListQueryDto {
  order_id?: string;
  account_id?: string;
  status?: string;
}

const state = (o: OrderRecord) => ({
  documentType: o.documentType as DocumentType,
  orderStatus: o.orderStatus as OrderStatus,
  amountPaid: o.amountPaid,
  convertedToId: o.convertedToId,
});

/** The fields expand[] follows on payment (declared when the module loads, for the OpenAPI description). */
const PAYMENT_EXPANSIONS = expandableFields('payment', {
  order: { kind: 'reference', source: 'order_id', target: 'order', resource: 'order' },
  account: { kind: 'reference', source: 'account_id', target: 'account', resource: 'account' },
});

/** The fields expand[] follows on refund (declared when the module loads, for the OpenAPI description). */
const REFUND_EXPANSIONS = expandableFields('refund', references({ payment: 'payment' }));

/** Payments against invoices (through the payment processor port), refunds, and their ledger postings. */
@Injectable()
export class PaymentsService implements OnModuleInit {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly refunds: RefundRepository,
    private readonly paymentMethods: PaymentMethodRepository,
    private readonly orders: OrdersService,
    private readonly ledger: LedgerPostingService,
    @Inject(PAYMENT_PROCESSOR) private readonly processor: PaymentProcessor,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    private readonly credits: CustomerCreditsService,
    private readonly settings: AccountingSettingsService,
    private readonly paymentRefunds: PaymentRefunds,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'payment',
      fields: PAYMENT_EXPANSIONS,
      load: (ids) => this.payments.presentByIds(ids, (rows) => this.present(rows)),
    });
    this.resources.registerRecords('refund', this.refunds, toRefundResource, REFUND_EXPANSIONS);
  }

  async present(rows: PaymentRecord[]): Promise<PaymentResource[]> {
    const applications = await this.applications.ofPayments(rows.map((r) => r.id));
    return rows.map((r) => toPaymentResource(r, applications.get(r.id) ?? []));
  }

  /**
   * Charges (card, stored payment method) or records (cash, check, bank transfer) a payment
   * against a confirmed invoice. A declined card stores a failed payment, emits payment.failed
   * and answers 422 card_declined; the card number is used for the charge only.
   */
  async payOrder(orderId: string, input: PaymentInput): Promise<PaymentResource> {
    // The metadata limits every resource's metadata obeys, checked before anything is charged.
    input = { ...input, metadata: initialMetadata(input.metadata) };
    const order = await this.orders.retrieve(orderId);
    const amount = await this.tx.run(async () => {
      const record = await this.orders.lockForPayment(orderId);
      return this.checkPayable(record, input);
    });
    if (input.method === 'card' && !input.card)
      throw new SalesError('parameter_missing', { param: 'card', hint: 'method card needs a card object.' });
    if (input.method !== 'card' && input.card)
      throw invalidParam('card', `card is accepted only with method 'card'.`);
    if (input.method === 'payment_method') {
      if (!input.payment_method_id)
        throw new SalesError('parameter_missing', {
          param: 'payment_method_id',
          hint: `method payment_method needs payment_method_id.`,
        });
      const pm = await this.paymentMethods.findById(input.payment_method_id);
      if (!pm || pm.accountId !== order.account_id) {
        throw invalidParam(
          'payment_method_id',
          `No payment method with id '${input.payment_method_id}' belongs to the order's account.`,
        );
      }
    } else if (input.payment_method_id) {
      throw invalidParam(
        'payment_method_id',
        `payment_method_id is accepted only with method 'payment_method'.`,
      );
    }
    if (input.method === CREDIT_PAYMENT_METHOD) return this.payFromCredit(orderId, input);
    let processorReference: string | null = null;
    let brand: string | null = null;
    let last4: string | null = null;
    if (input.method === 'card' || input.method === 'payment_method') {
      const result = await this.processor.charge({
        amount: amount.toFixed(2),
        currency: order.currency,
        card: input.card,
        paymentMethodId: input.payment_method_id,
        description: `Order ${order.id}`,
      });
      brand = result.brand;
      last4 = result.last4;
      if (!result.approved) {
        const failed = await this.tx.run(async () => {
          const record = await this.payments.create(
            this.newPayment(order.account_id, order.id, amount, order.currency, input, {
              status: 'failed',
              brand,
              last4,
              reference: null,
              failureCode: result.declineCode,
              failureMessage: result.message,
            }),
          );
          const resource = (await this.present([record]))[0];
          await this.events.publish('payment.failed', resource);
          return resource;
        });
        throw new SalesError('card_declined', {
          param: input.method === 'card' ? 'card.number' : 'payment_method_id',
          hint: `${result.message} (decline_code '${result.declineCode}'); the failed attempt is payment '${failed.id}'.`,
          details: { decline_code: result.declineCode, payment_id: failed.id },
        });
      }
      processorReference = result.reference;
    }
    try {
      return await this.record(orderId, input, amount, { brand, last4, processorReference });
    } catch (error) {
      // The charge went through but recording it failed (posting refused, a concurrent payment
      // took the amount due): give the money back so nothing is charged without a record.
      if (processorReference)
        await this.processor.refund({
          chargeReference: processorReference,
          amount: amount.toFixed(2),
          currency: order.currency,
          idempotencyKey: `unrecorded_${processorReference}`,
        });
      throw error;
    }
  }

  private record(
    orderId: string,
    input: PaymentInput,
    amount: Decimal,
    {
      brand,
      last4,
      processorReference,
    }: { brand: string | null; last4: string | null; processorReference: string | null },
  ): Promise<PaymentResource> {
    return this.tx.run(async () => {
      const record = await this.orders.lockForPayment(orderId);
      const checked = this.checkPayable(record, { ...input, amount: amount.toNumber() });
      const payment = await this.payments.create(
        this.newPayment(record.accountId, record.id, checked, record.currency, input, {
          status: 'succeeded',
          brand,
          last4,
          reference: processorReference,
          failureCode: null,
          failureMessage: null,
        }),
      );
      await this.applications.create({ paymentId: payment.id, orderId: record.id, amount: checked });
      const { resource: orderResource } = await this.orders.applyPayment(record, checked, money(0));
      await this.ledger.post({
        source_type: 'PAYMENT',
        source_id: payment.id,
        source_module: 'sales',
        entry_date: await this.settings.currentBusinessDay(),
        description: `Payment ${payment.id} for invoice ${record.id}`,
        lines: [
          { role: 'cash', debit: checked, description: 'Payment received' },
          { role: 'receivables', credit: checked, description: `Invoice ${record.id}` },
        ],
      });
      const resource = (await this.present([payment]))[0];
      await this.events.publish('payment.succeeded', resource);
      await this.events.publish(
        orderResource.payment_status === 'paid' ? 'invoice.paid' : 'invoice.partially_paid',
        orderResource,
      );
      return resource;
    });
  }

  /**
   * Pays an invoice from its account's credit balance: a payment with method customer_credit
   * (no processor), CREDIT_APPLIED (debit customer credit, credit receivables) and an
   * invoice_payment credit transaction, under the invoice's then the account's row lock, so two
   * concurrent payments from one balance cannot overspend it. Default amount: as much of the
   * amount due as the balance covers.
   */
  private payFromCredit(orderId: string, input: PaymentInput): Promise<PaymentResource> {
    return this.tx.run(async () => {
      const record = await this.orders.lockForPayment(orderId);
      this.checkPayable(record, input);
      if (!record.accountId)
        throw new SalesError('invalid_state', {
          hint: `This ${record.documentType} has no account, so no credit balance can pay it.`,
        });
      const balance = await this.credits.lockBalance(record.accountId);
      const amount = creditApplicationAmount(
        input.amount === undefined ? undefined : money(input.amount),
        balance,
        record.amountDue,
      );
      const payment = await this.payments.create(
        this.newPayment(record.accountId, record.id, amount, record.currency, input, {
          status: 'succeeded',
          brand: null,
          last4: null,
          reference: null,
          failureCode: null,
          failureMessage: null,
        }),
      );
      await this.applications.create({ paymentId: payment.id, orderId: record.id, amount });
      const { resource: orderResource } = await this.orders.applyPayment(record, amount, money(0));
      await this.credits.move(record.accountId, {
        type: 'invoice_payment',
        amount: amount.negated(),
        orderId: record.id,
        paymentId: payment.id,
        description: `Payment ${payment.id} of invoice ${record.id}`,
      });
      await this.ledger.post({
        source_type: 'CREDIT_APPLIED',
        source_id: payment.id,
        source_module: 'sales',
        entry_date: await this.settings.currentBusinessDay(),
        description: `Customer credit applied to invoice ${record.id} (payment ${payment.id})`,
        lines: [
          { role: 'customer_credit', debit: amount, description: 'Customer credit spent' },
          { role: 'receivables', credit: amount, description: `Invoice ${record.id}` },
        ],
      });
      const resource = (await this.present([payment]))[0];
      await this.events.publish('payment.succeeded', resource);
      await this.events.publish(
        orderResource.payment_status === 'paid' ? 'invoice.paid' : 'invoice.partially_paid',
        orderResource,
      );
      return resource;
    });
  }

  async list(query: PaymentListQuery, url: string): Promise<ListPage<PaymentResource>> {
    const page = await this.payments.list(query, url);
    return listEnvelope(await this.present(page.rows), page, url);
  }

  async retrieve(id: string): Promise<PaymentResource> {
    return (await this.present([await this.payments.getById(id)]))[0];
  }

  async listRefunds(paymentId: string, query: ListQueryDto, url: string): Promise<ListPage<RefundResource>> {
    await this.payments.getById(paymentId);
    const page = await this.refunds.listOfPayment(paymentId, query, url);
    return listEnvelope(page.rows.map(toRefundResource), page, url);
  }

  /**
   * Refunds part or all of a succeeded payment: REFUND posting (debit receivables, credit cash);
   * the invoice is due again by that amount. A payment from customer credit goes back to the
   * account's credit balance (credit customer credit instead of cash; a payment_refund credit
   * transaction). The steps: refunds of this payment left pending by a lost processor answer
   * are finished first; the refund is reserved (`pending`) and committed; the processor is asked
   * outside any transaction; its answer is recorded in a second transaction. A refusal is the
   * refund answered with status `failed` (nothing moved, its amount free again); no answer is 503
   * service_unavailable, the refund `pending` until a later refund request of the payment asks
   * again.
   */
  async refund(
    paymentId: string,
    input: { amount?: number; reason?: string | null },
  ): Promise<RefundResource> {
    await this.finishStaleRefunds(paymentId);
    const reserved = await this.tx.run(() =>
      this.paymentRefunds.reserve(
        paymentId,
        input.amount === undefined ? undefined : money(input.amount),
        input.reason ?? null,
      ),
    );
    const outcome = await this.paymentRefunds.send(reserved);
    const refund = await this.tx.run(() => this.paymentRefunds.complete(reserved.id, outcome));
    if (refund.status === 'pending')
      throw new SalesError('service_unavailable', {
        hint: `The payment processor did not answer; refund '${refund.id}' stays pending and is finished by a refund request of payment '${paymentId}' made after ${PENDING_REFUND_GRACE_MS / 1000} seconds.`,
        details: { refund_id: refund.id },
      });
    return toRefundResource(refund);
  }

  /** Finishes the payment's refunds whose processor answer was lost, asking again with their keys. */
  private async finishStaleRefunds(paymentId: string): Promise<void> {
    for (const stale of await this.paymentRefunds.stalePendingOf(paymentId)) {
      const outcome = await this.paymentRefunds.send(stale);
      await this.tx.run(() => this.paymentRefunds.complete(stale.id, outcome));
    }
  }

  /** 409 unless the order is an issued invoice; 422 amount_exceeds_limit above the amount due. Returns the amount to take. */
  private checkPayable(record: OrderRecord, input: { amount?: number }): Decimal {
    orderTransition('pay', state(record));
    if (record.amountDue.lte(0)) {
      throw new SalesError('invalid_state', {
        hint: `This ${record.documentType} has payment_status '${record.paymentStatus}' and nothing is due.`,
      });
    }
    const amount = input.amount === undefined ? record.amountDue : money(input.amount);
    if (amount.gt(record.amountDue)) {
      throw new SalesError('amount_exceeds_limit', {
        param: 'amount',
        hint: `The amount due is ${record.amountDue.toFixed(2)}; a payment cannot exceed it.`,
      });
    }
    return amount;
  }

  private newPayment(
    accountId: string | null,
    orderId: string | null,
    amount: Decimal,
    currency: string,
    input: PaymentInput,
    extra: {
      status: string;
      brand: string | null;
      last4: string | null;
      reference: string | null;
      failureCode: string | null;
      failureMessage: string | null;
    },
  ) {
    return {
      accountId,
      orderId,
      amount,
      amountRefunded: money(0),
      currency,
      status: extra.status,
      method: input.method,
      paymentMethodId: input.payment_method_id ?? null,
      cardBrand: extra.brand,
      cardLast4: extra.last4,
      processorReference: extra.reference,
      failureCode: extra.failureCode,
      failureMessage: extra.failureMessage,
      reference: input.reference ?? null,
      metadata: input.metadata ?? {},
    };
  }
}
