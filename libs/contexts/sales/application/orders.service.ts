import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService } from '../../accounting';
import { TagsService } from '../../catalog';
import { EntityProfiles } from '../../../platform/tenancy/entity-profiles';
import { notFound } from '../../../platform/errors/domain-error';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { OrderCommitmentsGateway } from './order-commitments.port';
import { ResourceRegistry } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '../../../platform/http/list/paginate';
import { money } from '../../../platform/persistence/money';
import { PageFilter } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { mergeMetadata } from '../domain/account';
import {
  amountDueOf,
  assertReadyForFulfillment,
  assertTransition,
  conversionTarget,
  DEFAULT_LIST_TYPES,
  DocumentType,
  editRevises,
  isInvoiceType,
  isRevisionPending,
  nextStatus,
  OrderState,
  OrderStatus,
  paymentStatusOf,
  PaymentStatus,
} from '../domain/order';
import { lineAmounts, orderTotals } from '../domain/order-totals';
import { invalidParam, SalesError } from '../domain/sales-error';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository, OrderRepository } from '../infrastructure/order.repositories';
import { AccountRepository } from '../infrastructure/sales.repositories';
import { OrderResource, toOrderLineResource, toOrderResource } from './order.presenter';
import { KitLines } from './kit-lines';
import { PricingPoliciesService } from './pricing-policies.service';
import { RecognizedRevenueGateway } from './recognized-revenue.port';

export interface OrderLineInput {
  product_id?: string | null;
  description?: string;
  quantity: number;
  unit_price?: number;
  discount_percent?: number;
  discount_amount?: number;
  tax_rate?: number;
}

export interface OrderInput {
  document_type?: DocumentType;
  account_id?: string | null;
  currency?: string;
  lines?: OrderLineInput[];
  notes?: string | null;
  metadata?: Record<string, unknown>;
}

export type OrderSort = 'created_at_desc' | 'created_at_asc' | '-created_at' | 'created_at';

export interface OrderListQuery extends ListQueryDto {
  document_type?: DocumentType;
  account_id?: string;
  order_status?: OrderStatus;
  payment_status?: PaymentStatus;
  created_after?: string;
  created_before?: string;
  sort?: OrderSort;
}

interface ProductView {
  id: string;
  name: string;
  status: string;
  list_price: number;
  category_id: string | null;
}

const today = () => new Date().toISOString().slice(0, 10);
/** numeric(19,4) holds amounts below 10^15. */
const MAX_AMOUNT = money('1e15');
const stateOf = (o: OrderRecord): OrderState => ({
  documentType: o.documentType as DocumentType,
  orderStatus: o.orderStatus as OrderStatus,
  amountPaid: o.amountPaid,
  convertedToId: o.convertedToId,
});
const revisionOf = (o: OrderRecord) => ({
  orderStatus: o.orderStatus as OrderStatus,
  sentToCustomerAt: o.sentToCustomerAt,
  revisedAt: o.revisedAt,
  revisionAcknowledgedAt: o.revisionAcknowledgedAt,
});

/** Order documents (quotes, sales orders, invoices, returns, purchase orders, late-fee invoices) and their lines. */
@Injectable()
export class OrdersService implements OnModuleInit {
  constructor(
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly accounts: AccountRepository,
    private readonly pricing: PricingPoliciesService,
    private readonly tags: TagsService,
    private readonly ledger: LedgerPostingService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    private readonly kitLines: KitLines,
    private readonly commitments: OrderCommitmentsGateway,
    private readonly recognized: RecognizedRevenueGateway,
    private readonly profiles: EntityProfiles,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'order',
      fields: {
        account: { kind: 'reference', source: 'account_id', target: 'account', resource: 'account' },
        lines: { kind: 'embedded', resource: 'order_line' },
        source_order: {
          kind: 'reference',
          source: 'source_order_id',
          target: 'source_order',
          resource: 'order',
        },
      },
      load: async (ids) =>
        new Map((await this.present(await this.orders.findByIds(ids))).map((o) => [o.id, o])),
    });
    this.resources.register({
      name: 'order_line',
      fields: {
        product: { kind: 'reference', source: 'product_id', target: 'product', resource: 'product' },
        order: { kind: 'reference', source: 'order_id', target: 'order', resource: 'order' },
      },
      load: async (ids) =>
        new Map((await this.lines.findByIds(ids)).map((l) => [l.id, toOrderLineResource(l)])),
    });
  }

  /** Serializes orders with their lines and tag ids: two queries for any number of orders. */
  async present(rows: OrderRecord[]): Promise<OrderResource[]> {
    const ids = rows.map((r) => r.id);
    const [lines, tagIds] = await Promise.all([this.lines.ofOrders(ids), this.tags.tagIdsOf('order', ids)]);
    return rows.map((r) => toOrderResource(r, lines.get(r.id) ?? [], tagIds.get(r.id) ?? []));
  }

  private async presentOne(row: OrderRecord): Promise<OrderResource> {
    return (await this.present([row]))[0];
  }

  async create(input: OrderInput): Promise<OrderResource> {
    return this.tx.run(async () => {
      const documentType = input.document_type ?? 'sales_order';
      const accountId = input.account_id ?? null;
      let currency = input.currency?.toUpperCase();
      if (accountId === null) {
        if (documentType !== 'purchase_order') {
          throw new SalesError('parameter_missing', {
            param: 'account_id',
            hint: `A ${documentType} needs an account_id.`,
          });
        }
      } else {
        const account = await this.accounts.findById(accountId);
        if (!account || account.status !== 'active') {
          throw invalidParam(
            'account_id',
            `No active account with id '${accountId}' exists for this entity and mode.`,
          );
        }
        if (currency && currency !== account.currency) {
          throw invalidParam(
            'currency',
            `The account's currency is ${account.currency}; an order is in its account's currency.`,
          );
        }
        currency = account.currency;
      }
      const record = await this.orders.create({
        documentType,
        accountId,
        currency: currency ?? (await this.baseCurrency()),
        orderStatus: 'draft',
        paymentStatus: 'unpaid',
        subtotal: money(0),
        discountTotal: money(0),
        taxTotal: money(0),
        total: money(0),
        amountPaid: money(0),
        amountRefunded: money(0),
        amountDue: money(0),
        sourceOrderId: null,
        convertedToId: null,
        confirmedAt: null,
        cancelledAt: null,
        voidedAt: null,
        fulfilledAt: null,
        closedAt: null,
        sentToCustomerAt: null,
        revisedAt: null,
        revisionCount: 0,
        revisionAcknowledgedAt: null,
        acknowledgedTotal: null,
        notes: input.notes ?? null,
        metadata: mergeMetadata({}, input.metadata ?? {}),
      });
      await this.replaceLines(record, input.lines ?? []);
      const resource = await this.presentOne(await this.orders.save(record));
      await this.events.publish('order.created', resource);
      if (isInvoiceType(documentType)) await this.events.publish('invoice.created', resource);
      return resource;
    });
  }

  async list(query: OrderListQuery, url: string): Promise<ListPage<OrderResource>> {
    const direction = query.sort === 'created_at_asc' || query.sort === 'created_at' ? 'asc' : 'desc';
    // Column filters only, so the page runs as one prepared statement (TenantRepository.page).
    const filters: PageFilter[] = [
      query.document_type
        ? { sql: 'document_type = ?', value: query.document_type }
        : { sql: 'document_type = ANY(?::text[])', value: DEFAULT_LIST_TYPES },
    ];
    if (query.account_id) filters.push({ sql: 'account_id = ?', value: query.account_id });
    if (query.order_status) filters.push({ sql: 'order_status = ?', value: query.order_status });
    if (query.payment_status) filters.push({ sql: 'payment_status = ?', value: query.payment_status });
    // Timestamps are shown with milliseconds while stored with microseconds: "after" a shown
    // value means from the next millisecond on, so an order's own created_at excludes it.
    if (query.created_after)
      filters.push({
        sql: 'created_at >= ?',
        value: new Date(new Date(query.created_after).getTime() + 1),
      });
    if (query.created_before) filters.push({ sql: 'created_at < ?', value: new Date(query.created_before) });
    const page = await this.orders.page(query, { url, direction }, filters);
    return listEnvelope(await this.present(page.rows), page, url);
  }

  async retrieve(id: string): Promise<OrderResource> {
    return this.presentOne(await this.orders.getById(id));
  }

  /** Changes fields and (when `lines` is sent) replaces every line; a change after sending revises a confirmed order. */
  async update(id: string, input: OrderInput): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      const before = await this.presentOne(record);
      const touchesDocument = input.lines !== undefined || input.account_id !== undefined;
      if (touchesDocument) assertTransition('edit', stateOf(record));
      else if (record.orderStatus === 'cancelled' || record.orderStatus === 'voided')
        assertTransition('edit', stateOf(record));
      if (input.account_id !== undefined && input.account_id !== record.accountId) {
        if (record.orderStatus !== 'draft') {
          throw new SalesError('invalid_state', {
            param: 'account_id',
            hint: `The account of an order can change only while its order_status is 'draft'; it is '${record.orderStatus}'.`,
          });
        }
        if (input.account_id === null) throw invalidParam('account_id', 'account_id cannot be null.');
        const account = await this.accounts.findById(input.account_id);
        if (!account || account.status !== 'active') {
          throw invalidParam(
            'account_id',
            `No active account with id '${input.account_id}' exists for this entity and mode.`,
          );
        }
        if (account.currency !== record.currency)
          throw invalidParam(
            'account_id',
            `The account's currency ${account.currency} differs from the order's ${record.currency}.`,
          );
        record.accountId = input.account_id;
      }
      if (input.notes !== undefined) record.notes = input.notes;
      if (input.metadata !== undefined) record.metadata = mergeMetadata(record.metadata, input.metadata);
      if (input.lines !== undefined) {
        await this.lines.deleteOfOrder(record.id);
        await this.replaceLines(record, input.lines);
      }
      return this.saveChange(record, before, input.lines !== undefined);
    });
  }

  async addLine(orderId: string, input: OrderLineInput): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      assertTransition('edit', stateOf(record));
      const before = await this.presentOne(record);
      const existing = (await this.lines.ofOrders([record.id])).get(record.id) ?? [];
      const [line] = await this.priceLines(record, [input], 'lines', existing.length);
      await this.lines.insertMany(await this.kitLines.expand([line], existing.length));
      await this.recompute(record);
      const resource = await this.saveChange(record, before, true, 'order.line.added');
      return resource;
    });
  }

  async updateLine(orderId: string, lineId: string, input: Partial<OrderLineInput>): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const line = await this.lineOf(record.id, lineId);
      assertTransition('edit', stateOf(record));
      const before = await this.presentOne(record);
      const productChanged = input.product_id !== undefined && input.product_id !== line.productId;
      if (productChanged || input.unit_price !== undefined) {
        // A new product or an explicit price prices the line again; otherwise it keeps the price (and policy) it was created with.
        const [priced] = await this.priceLines(
          record,
          [
            {
              product_id: productChanged ? input.product_id : line.productId,
              description: input.description ?? (productChanged ? undefined : line.description),
              quantity: input.quantity ?? line.quantity.toNumber(),
              unit_price: input.unit_price,
              discount_percent: input.discount_percent ?? line.discountPercent.toNumber(),
              discount_amount: input.discount_amount ?? line.discountAmount.toNumber(),
              tax_rate: input.tax_rate ?? line.taxRate.toNumber(),
            },
          ],
          'line',
          line.position,
        );
        Object.assign(line, priced);
      } else {
        if (input.description !== undefined) line.description = input.description;
        if (input.quantity !== undefined) line.quantity = money(input.quantity);
        if (input.discount_percent !== undefined) line.discountPercent = money(input.discount_percent);
        if (input.discount_amount !== undefined) line.discountAmount = money(input.discount_amount);
        if (input.tax_rate !== undefined) line.taxRate = money(input.tax_rate);
        Object.assign(
          line,
          lineAmounts({
            quantity: line.quantity,
            unitPrice: line.unitPrice,
            discountPercent: line.discountPercent,
            discountAmount: line.discountAmount,
            taxRate: line.taxRate,
          }),
        );
      }
      await this.lines.save(line);
      if (productChanged || input.quantity !== undefined) await this.kitLines.resync(line);
      await this.recompute(record);
      return this.saveChange(record, before, true, 'order.line.updated');
    });
  }

  async removeLine(orderId: string, lineId: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const line = await this.lineOf(record.id, lineId);
      assertTransition('edit', stateOf(record));
      const before = await this.presentOne(record);
      await this.lines.delete(line);
      await this.recompute(record);
      return this.saveChange(record, before, true, 'order.line.removed');
    });
  }

  async confirm(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      assertTransition('confirm', stateOf(record));
      const lines = (await this.lines.ofOrders([record.id])).get(record.id) ?? [];
      if (lines.length === 0)
        throw new SalesError('invalid_state', {
          param: 'lines',
          hint: `An order without lines cannot be confirmed (order_status 'draft').`,
        });
      record.orderStatus = nextStatus('confirm');
      record.confirmedAt = new Date();
      const resource = await this.presentOne(await this.orders.save(record));
      if (isInvoiceType(record.documentType)) await this.postInvoice(record);
      await this.commitments.orderChanged(record);
      await this.events.publish('order.confirmed', resource, { order_status: 'draft' });
      if (isInvoiceType(record.documentType)) await this.events.publish('invoice.finalized', resource);
      return resource;
    });
  }

  async cancel(id: string): Promise<OrderResource> {
    return this.terminate(id, 'cancel');
  }

  async void(id: string): Promise<OrderResource> {
    return this.terminate(id, 'void');
  }

  /** Closes a confirmed or fulfilled order: nothing more will happen to it. */
  async close(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      assertTransition('close', stateOf(record));
      const previous = record.orderStatus;
      record.orderStatus = nextStatus('close');
      record.closedAt = new Date();
      const resource = await this.presentOne(await this.orders.save(record));
      await this.commitments.orderChanged(record);
      await this.events.publish('order.updated', resource, { order_status: previous, closed_at: null });
      return resource;
    });
  }

  /** For the fulfillment context: marks a confirmed sales order (or return, purchase order) fulfilled. */
  async markFulfilled(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      assertTransition('fulfill', stateOf(record));
      record.orderStatus = nextStatus('fulfill');
      record.fulfilledAt = new Date();
      const resource = await this.presentOne(await this.orders.save(record));
      await this.commitments.orderChanged(record);
      await this.events.publish('order.updated', resource, { order_status: 'confirmed', fulfilled_at: null });
      return resource;
    });
  }

  /**
   * quote → sales_order (the quote closes), sales_order → invoice (the sales order keeps its status).
   * The new document is a draft with the same account, currency and lines, prices included.
   */
  async convert(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const source = await this.orders.getForUpdate(id);
      assertTransition('convert', stateOf(source));
      const targetType = conversionTarget(source.documentType as DocumentType) as DocumentType;
      const target = await this.orders.create({
        ...this.copyable(source),
        documentType: targetType,
        orderStatus: 'draft',
        paymentStatus: 'unpaid',
        sourceOrderId: source.id,
      });
      const sourceLines = (await this.lines.ofOrders([source.id])).get(source.id) ?? [];
      await this.lines.insertMany(this.kitLines.copiesFor(sourceLines, target.id));
      await this.recompute(target);
      const created = await this.presentOne(await this.orders.save(target));
      const sourceBefore = source.orderStatus;
      source.convertedToId = target.id;
      if (source.documentType === 'quote') {
        source.orderStatus = 'closed';
        source.closedAt = new Date();
      }
      const converted = await this.presentOne(await this.orders.save(source));
      await this.events.publish('order.created', created);
      if (isInvoiceType(targetType)) await this.events.publish('invoice.created', created);
      await this.events.publish('order.converted', converted, {
        order_status: sourceBefore,
        converted_to_id: null,
      });
      return created;
    });
  }

  /** Records that the document was sent to the customer; later changes to a confirmed order revise it. */
  async send(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      assertTransition('send', stateOf(record));
      const previous = record.sentToCustomerAt;
      record.sentToCustomerAt = new Date();
      // Sending the revised document is not an acknowledgment: the customer must still acknowledge.
      const resource = await this.presentOne(await this.orders.save(record));
      await this.events.publish('order.updated', resource, {
        sent_to_customer_at: previous ? previous.toISOString() : null,
      });
      return resource;
    });
  }

  /** Stores the customer's acknowledgment of the current (revised) total. */
  async acknowledgeRevision(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      if (!isRevisionPending(revisionOf(record))) {
        throw new SalesError('invalid_state', {
          hint: `Order '${record.id}' (order_status '${record.orderStatus}') has no unacknowledged revision${record.revisedAt ? '; the last revision was already acknowledged' : '; it was never revised after being sent'}.`,
        });
      }
      record.revisionAcknowledgedAt = new Date();
      record.acknowledgedTotal = record.total;
      const resource = await this.presentOne(await this.orders.save(record));
      await this.events.publish('order.revision_acknowledged', resource, {
        revision: { acknowledged: false },
      });
      return resource;
    });
  }

  /** For package creation: 422 order_not_confirmed unless a confirmed sales order, 409 revision_unacknowledged while a revision is pending. */
  async assertReadyForFulfillment(orderId: string): Promise<void> {
    const record = await this.orders.findById(orderId);
    if (!record)
      throw new SalesError('not_found', {
        param: 'order_id',
        hint: `No order with id '${orderId}' exists for this entity and mode.`,
      });
    assertReadyForFulfillment({
      ...revisionOf(record),
      documentType: record.documentType as DocumentType,
      id: record.id,
    });
  }

  async addTag(orderId: string, tagId: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const before = (await this.tags.tagIdsOf('order', [record.id])).get(record.id) ?? [];
      const added = await this.tags.attach('order', record.id, tagId);
      const resource = await this.presentOne(record);
      if (added) await this.events.publish('order.updated', resource, { tag_ids: before });
      return resource;
    });
  }

  async removeTag(orderId: string, tagId: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const before = (await this.tags.tagIdsOf('order', [record.id])).get(record.id) ?? [];
      if (!(await this.tags.detach('order', record.id, tagId))) {
        throw new SalesError('not_found', {
          hint: `Tag '${tagId}' is not attached to order '${record.id}'.`,
        });
      }
      const resource = await this.presentOne(record);
      await this.events.publish('order.updated', resource, { tag_ids: before });
      return resource;
    });
  }

  /** For payments: the order locked for update (404 when absent). */
  lockForPayment(orderId: string): Promise<OrderRecord> {
    return this.orders.getForUpdate(orderId);
  }

  /** For payments: applies a net change of the amount paid (negative for refunds) and recomputes the payment status. */
  async applyPayment(
    record: OrderRecord,
    paid: Decimal,
    refunded: Decimal,
  ): Promise<{ resource: OrderResource; previous: string }> {
    const previous = record.paymentStatus;
    record.amountPaid = record.amountPaid.plus(paid).minus(refunded);
    record.amountRefunded = record.amountRefunded.plus(refunded);
    record.paymentStatus = paymentStatusOf(record.total, record.amountPaid, record.amountRefunded);
    record.amountDue = amountDueOf(record.orderStatus as OrderStatus, record.total, record.amountPaid);
    return { resource: await this.presentOne(await this.orders.save(record)), previous };
  }

  private async terminate(id: string, action: 'cancel' | 'void'): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      assertTransition(action, stateOf(record));
      const previous = record.orderStatus;
      record.orderStatus = nextStatus(action);
      if (action === 'cancel') record.cancelledAt = new Date();
      else record.voidedAt = new Date();
      record.amountDue = amountDueOf(record.orderStatus as OrderStatus, record.total, record.amountPaid);
      const resource = await this.presentOne(await this.orders.save(record));
      await this.commitments.orderChanged(record);
      if (isInvoiceType(record.documentType) && previous !== 'draft') await this.postInvoiceReversal(record);
      await this.events.publish(action === 'cancel' ? 'order.cancelled' : 'order.voided', resource, {
        order_status: previous,
      });
      if (action === 'void' && isInvoiceType(record.documentType))
        await this.events.publish('invoice.voided', resource);
      return resource;
    });
  }

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
  private async postInvoice(record: OrderRecord): Promise<void> {
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
  private async postInvoiceReversal(record: OrderRecord): Promise<void> {
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

  private copyable(
    o: OrderRecord,
  ): Omit<Partial<OrderRecord>, 'id' | 'entityId' | 'livemode' | 'createdAt' | 'updatedAt' | 'version'> {
    return {
      accountId: o.accountId,
      currency: o.currency,
      subtotal: o.subtotal,
      discountTotal: o.discountTotal,
      taxTotal: o.taxTotal,
      total: o.total,
      amountPaid: money(0),
      amountRefunded: money(0),
      amountDue: o.total,
      convertedToId: null,
      confirmedAt: null,
      cancelledAt: null,
      voidedAt: null,
      fulfilledAt: null,
      closedAt: null,
      sentToCustomerAt: null,
      revisedAt: null,
      revisionCount: 0,
      revisionAcknowledgedAt: null,
      acknowledgedTotal: null,
      notes: o.notes,
      metadata: { ...o.metadata },
    };
  }

  private async lineOf(orderId: string, lineId: string): Promise<OrderLineRecord> {
    const line = await this.lines.findById(lineId);
    if (!line || line.orderId !== orderId) throw notFound('order line', lineId);
    return line;
  }

  /** Saves the order after a change; marks it revised when it was confirmed and already sent. */
  private async saveChange(
    record: OrderRecord,
    before: OrderResource,
    linesChanged: boolean,
    lineEvent?: 'order.line.added' | 'order.line.updated' | 'order.line.removed',
  ): Promise<OrderResource> {
    const revises = linesChanged && editRevises(revisionOf(record));
    if (revises) {
      record.revisedAt = new Date();
      record.revisionCount += 1;
    }
    record.updatedAt = new Date();
    const resource = await this.presentOne(await this.orders.save(record));
    if (linesChanged && record.orderStatus === 'confirmed') await this.commitments.orderChanged(record);
    const changed = (Object.keys(before) as (keyof OrderResource)[]).filter(
      (k) => k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(resource[k]),
    );
    const previous = Object.fromEntries(changed.map((k) => [k, before[k]]));
    if (lineEvent) await this.events.publish(lineEvent, resource, previous);
    else if (changed.length > 0) {
      await this.events.publish('order.updated', resource, previous);
      if (isInvoiceType(record.documentType))
        await this.events.publish('invoice.updated', resource, previous);
    }
    if (revises)
      await this.events.publish('order.revised', resource, {
        total: before.total,
        revision: before.revision,
      });
    return resource;
  }

  private async replaceLines(record: OrderRecord, inputs: OrderLineInput[]): Promise<void> {
    const lines = await this.kitLines.expand(await this.priceLines(record, inputs, 'lines', 0), 0);
    await this.lines.insertMany(lines);
    this.applyTotals(record, lines);
  }

  private async recompute(record: OrderRecord): Promise<void> {
    const lines = (await this.lines.ofOrders([record.id])).get(record.id) ?? [];
    this.applyTotals(record, lines);
  }

  private applyTotals(
    record: OrderRecord,
    lines: Pick<OrderLineRecord, 'subtotal' | 'discountTotal' | 'taxTotal' | 'total'>[],
  ): void {
    const totals = orderTotals(lines);
    if (totals.subtotal.gte(MAX_AMOUNT))
      throw invalidParam('lines', `The order subtotal must stay below ${MAX_AMOUNT.toFixed(0)}.`);
    record.subtotal = totals.subtotal;
    record.discountTotal = totals.discountTotal;
    record.taxTotal = totals.taxTotal;
    record.total = totals.total;
    record.paymentStatus = paymentStatusOf(record.total, record.amountPaid, record.amountRefunded);
    record.amountDue = amountDueOf(record.orderStatus as OrderStatus, record.total, record.amountPaid);
  }

  /**
   * Prices lines: with a product and no unit_price, the product's list price with the best
   * applicable pricing policy; the list price and the policy id are copied onto the line.
   * `param` is `lines` (errors name `lines[i].field`) or `line` (a single line body: `field`).
   */
  private async priceLines(
    record: OrderRecord,
    inputs: OrderLineInput[],
    param: 'lines' | 'line',
    firstPosition: number,
  ): Promise<
    Omit<OrderLineRecord, 'id' | 'entityId' | 'livemode' | 'createdAt' | 'updatedAt' | 'version'>[]
  > {
    const at = (i: number, field: string) => (param === 'lines' ? `lines[${i}].${field}` : field);
    const productIds = [
      ...new Set(inputs.map((l) => l.product_id).filter((p): p is string => typeof p === 'string')),
    ];
    const products = await this.loadProducts(productIds);
    const priced = new Map<string, Awaited<ReturnType<PricingPoliciesService['priceLine']>>>();
    const result = [];
    for (const [i, input] of inputs.entries()) {
      const product = input.product_id ? products.get(input.product_id) : undefined;
      if (input.product_id && !product) {
        throw invalidParam(
          at(i, 'product_id'),
          `No product with id '${input.product_id}' exists for this entity and mode.`,
        );
      }
      if (product && product.status !== 'active') {
        throw invalidParam(
          at(i, 'product_id'),
          `Product '${product.id}' is ${product.status}; only active products can be ordered.`,
        );
      }
      if (!product && !input.description) {
        throw new SalesError('parameter_missing', {
          param: at(i, 'description'),
          hint: 'A line without product_id needs a description.',
        });
      }
      if (!product && input.unit_price === undefined) {
        throw new SalesError('parameter_missing', {
          param: at(i, 'unit_price'),
          hint: 'A line without product_id needs a unit_price.',
        });
      }
      const quantity = money(input.quantity);
      let listPrice: Decimal | null = product ? money(product.list_price) : null;
      let unitPrice: Decimal;
      let policyId: string | null = null;
      if (input.unit_price !== undefined) {
        unitPrice = money(input.unit_price);
      } else {
        const key = `${product!.id}`;
        let quote = priced.get(key);
        if (!quote) {
          quote = await this.pricing.priceLine(listPrice!, 1, {
            accountId: record.accountId,
            productId: product!.id,
            productCategoryId: product!.category_id,
          });
          priced.set(key, quote);
        }
        unitPrice = quote.unitPrice;
        policyId = quote.appliedPolicyId;
        listPrice = quote.listPrice;
      }
      const amounts = lineAmounts({
        quantity,
        unitPrice,
        discountPercent: input.discount_percent ?? 0,
        discountAmount: input.discount_amount ?? 0,
        taxRate: input.tax_rate ?? 0,
      });
      if (amounts.subtotal.gte(MAX_AMOUNT)) {
        throw invalidParam(
          at(i, 'quantity'),
          `quantity × unit_price must stay below ${MAX_AMOUNT.toFixed(0)}.`,
        );
      }
      result.push({
        orderId: record.id,
        position: firstPosition + i,
        productId: product ? product.id : null,
        description: input.description ?? product!.name,
        quantity,
        listPrice,
        unitPrice,
        pricingPolicyId: policyId,
        discountPercent: money(input.discount_percent ?? 0),
        discountAmount: money(input.discount_amount ?? 0),
        taxRate: money(input.tax_rate ?? 0),
        subtotal: amounts.subtotal,
        discountTotal: amounts.discountTotal,
        taxTotal: amounts.taxTotal,
        total: amounts.total,
      });
    }
    return result;
  }

  /** Products through the catalog's registered batch loader (the catalog's public read model, never its tables). */
  private async loadProducts(ids: string[]): Promise<Map<string, ProductView>> {
    if (ids.length === 0) return new Map();
    const load = this.resources.get('product')?.load;
    if (!load) throw new Error('The catalog context has not registered the product resource');
    return (await load(ids)) as Map<string, ProductView>;
  }

  private async baseCurrency(): Promise<string> {
    const entity = await this.profiles.current();
    if (!entity) throw notFound('entity');
    return entity.baseCurrency;
  }
}
