import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import {
  DepositApplication,
  OpenReceivable,
  ReceivablesRegistry,
  ReceivablesPort,
} from '#contexts/accounting';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { INVOICE_TYPES, ISSUED_STATUSES } from '../domain/order';
import { OrderRecord } from '../infrastructure/order.entity';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import { OpenInvoiceKinds, OrderRepository } from '../infrastructure/order.repository';
import { PaymentApplicationRepository } from '../infrastructure/payment-application.repository';
import { PaymentRepository } from '../infrastructure/payment.repository';
import { CustomerCreditsService } from './customer-credits.service';
import { OrdersService } from './orders.service';
import { PaymentsService } from './payments.service';

/** Invoices that count as receivables: issued and not cancelled or voided. */
const OPEN_STATUSES = ISSUED_STATUSES;

/** The invoices owed to the entity: of an invoice type, open, with an amount due. */
const OPEN_INVOICES: OpenInvoiceKinds = { documentTypes: INVOICE_TYPES, orderStatuses: OPEN_STATUSES };

/** An open invoice as the receivables port describes it. */
function toOpenReceivable(r: OrderRecord): OpenReceivable {
  return {
    invoiceId: r.id,
    accountId: r.accountId as string,
    currency: r.currency,
    total: r.total,
    amountDue: r.amountDue,
  };
}

/** The sales context's ReceivablesPort over its invoices, registered with accounting at start-up. */
@Injectable()
export class SalesReceivables implements ReceivablesPort, OnModuleInit {
  constructor(
    private readonly registry: ReceivablesRegistry,
    private readonly orderRepo: OrderRepository,
    private readonly orders: OrdersService,
    private readonly payments: PaymentRepository,
    private readonly applications: PaymentApplicationRepository,
    private readonly paymentsService: PaymentsService,
    private readonly credits: CustomerCreditsService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  /** The oldest open invoices of the caller's entity and mode (the seed picks a deposit's invoices from them). */
  async listOpenInvoices(limit: number): Promise<OpenReceivable[]> {
    const rows = await this.orderRepo.oldestOpenInvoices(OPEN_INVOICES, limit);
    return rows.map(toOpenReceivable);
  }

  async findOpenInvoices(accountId: string, invoiceIds: string[]): Promise<OpenReceivable[]> {
    if (invoiceIds.length === 0) return [];
    return this.tx.run(async () => {
      const rows = await this.orderRepo.openInvoicesForUpdate(OPEN_INVOICES, accountId, invoiceIds);
      return rows.map(toOpenReceivable);
    });
  }

  async recordDepositPayment(input: {
    accountId: string;
    applications: DepositApplication[];
    paymentMethod: string | null;
    reference: string;
  }): Promise<{ paymentId: string }> {
    return this.tx.run(async () => {
      const open = new Map(
        (
          await this.findOpenInvoices(
            input.accountId,
            input.applications.map((a) => a.invoiceId),
          )
        ).map((o) => [o.invoiceId, o]),
      );
      let total = money(0);
      let currency: string | null = null;
      for (const [i, application] of input.applications.entries()) {
        const invoice = open.get(application.invoiceId);
        if (!invoice)
          throw invalidParam(
            `applications[${i}].invoice_id`,
            `Invoice '${application.invoiceId}' is not an open invoice of account '${input.accountId}'.`,
          );
        if (money(application.amount).gt(invoice.amountDue)) {
          throw new SalesError('amount_exceeds_limit', {
            param: `applications[${i}].amount`,
            hint: `Invoice '${invoice.invoiceId}' has ${invoice.amountDue.toFixed(2)} due.`,
          });
        }
        total = total.plus(application.amount);
        currency ??= invoice.currency;
      }
      const payment = await this.payments.create({
        accountId: input.accountId,
        orderId: input.applications.length === 1 ? input.applications[0].invoiceId : null,
        amount: total,
        amountRefunded: money(0),
        currency: currency ?? 'USD',
        status: 'succeeded',
        // A payment's method names how it reached us (a bank deposit); how the customer paid the
        // bank (ach, wire...) is the deposit's, kept beside it.
        method: 'bank_deposit',
        paymentMethodId: null,
        cardBrand: null,
        cardLast4: null,
        processorReference: null,
        failureCode: null,
        failureMessage: null,
        reference: input.reference,
        metadata: input.paymentMethod ? { deposit_payment_method: input.paymentMethod } : {},
      });
      for (const application of input.applications) {
        await this.applications.create({
          paymentId: payment.id,
          orderId: application.invoiceId,
          amount: money(application.amount),
        });
        const order = await this.orders.lockForPayment(application.invoiceId);
        const { resource } = await this.orders.applyPayment(order, money(application.amount), money(0));
        await this.events.publish(
          resource.payment_status === 'paid' ? 'invoice.paid' : 'invoice.partially_paid',
          resource,
        );
      }
      await this.events.publish('payment.succeeded', (await this.paymentsService.present([payment]))[0]);
      return { paymentId: payment.id };
    });
  }

  /** The unapplied remainder of a matched deposit: a deposit_remainder credit transaction (account.updated). */
  async addCustomerCredit(accountId: string, amount: Decimal, reference: string): Promise<void> {
    await this.credits.move(accountId, {
      type: 'deposit_remainder',
      amount: money(amount),
      description: reference,
    });
  }

  async openReceivablesBalance(asOf: string): Promise<Decimal> {
    return money((await this.orderRepo.openAmountDue(OPEN_INVOICES, asOf)) ?? 0);
  }
}
