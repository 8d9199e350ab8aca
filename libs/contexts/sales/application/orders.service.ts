import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { DomainError, notFound } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { OrderCommitmentsRegistry } from './order-commitments.port';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { mergeMetadata } from '#platform/domain/metadata';
import {
  assertAccountChange,
  assertUpdate,
  conversionTarget,
  DEFAULT_LIST_TYPES,
  DocumentType,
  isInvoiceType,
  isRevisionPending,
  OrderLineInput,
  OrderStatus,
  orderTransition,
  PaymentStatus,
} from '../domain/order';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import { OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';
import { OrderRepository } from '../infrastructure/order.repository';
import { AccountRepository } from '../infrastructure/account.repository';
import { AccountRecord } from '../infrastructure/account.entity';
import { OrderResource, toOrderLineResource } from './order.presenter';
import { KitLines } from './kit-lines';
import { OrderChanges, revisionOf, settleAmounts, stateOf } from './order-changes.service';
import { OrderTags } from './order-tags.service';
import { RevenueRecognition } from './revenue-recognition.service';

export type { OrderLineInput };

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

/** The lifecycle fields of an order not yet converted, confirmed, ended, sent or revised. */
function unstartedLifecycle() {
  return {
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
    dueDate: null,
    collectionStatus: null,
    overdueAt: null,
    lateFeesCharged: null,
  } satisfies Partial<OrderRecord>;
}

/** Who a new order is for: its document type, account and currency (undefined: the entity's base currency). */
interface DocumentParty {
  documentType: DocumentType;
  accountId: string | null;
  currency: string | undefined;
}

/**
 * The party of a new order by create()'s rules: an account (active, in the order's currency) is
 * required except on purchase orders, and the order takes its currency. `account` is the record
 * of `input.account_id` (null when there is none).
 */
function newDocumentParty(input: OrderInput, account: AccountRecord | null): DocumentParty {
  const documentType = input.document_type ?? 'sales_order';
  const accountId = input.account_id ?? null;
  const currency = input.currency?.toUpperCase();
  if (accountId === null) {
    if (documentType !== 'purchase_order') {
      throw new SalesError('parameter_missing', {
        param: 'account_id',
        hint: `A ${documentType} needs an account_id.`,
      });
    }
    return { documentType, accountId, currency };
  }
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
  return { documentType, accountId, currency: account.currency };
}

/** The column values of a new draft without lines (totals zero until its lines are priced). */
function newDraftValues(
  input: OrderInput,
  party: DocumentParty,
  currency: string,
  origin: { sourceOrderId?: string } = {},
) {
  return {
    documentType: party.documentType,
    accountId: party.accountId,
    currency,
    orderStatus: 'draft',
    paymentStatus: 'unpaid',
    subtotal: money(0),
    discountTotal: money(0),
    taxTotal: money(0),
    total: money(0),
    amountPaid: money(0),
    amountRefunded: money(0),
    amountDue: money(0),
    amountCredited: money(0),
    sourceOrderId: origin.sourceOrderId ?? null,
    ...unstartedLifecycle(),
    notes: input.notes ?? null,
    metadata: mergeMetadata({}, input.metadata ?? {}),
  } satisfies Partial<OrderRecord>;
}

/** The fields expand[] follows on order (declared when the module loads, for the OpenAPI description). */
const ORDER_EXPANSIONS = expandableFields('order', {
  account: { kind: 'reference', source: 'account_id', target: 'account', resource: 'account' },
  lines: { kind: 'embedded', resource: 'order_line' },
  source_order: {
    kind: 'reference',
    source: 'source_order_id',
    target: 'source_order',
    resource: 'order',
  },
});

/** The fields expand[] follows on order_line (declared when the module loads, for the OpenAPI description). */
const ORDER_LINE_EXPANSIONS = expandableFields(
  'order_line',
  references({ product: 'product', order: 'order' }),
);

/**
 * Order documents (quotes, sales orders, invoices, returns, purchase orders, late-fee invoices):
 * created, listed, changed and deleted, closed, converted, sent and acknowledged, and the
 * payments and credits applied to them. Confirm (issue an invoice), cancel and void are use
 * cases of their own (application/orders/); other contexts use SalesOrders. Their lines are
 * OrderLines', their tags OrderTags'.
 */
@Injectable()
export class OrdersService implements OnModuleInit {
  constructor(
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly accounts: AccountRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    private readonly kitLines: KitLines,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly profiles: EntityProfiles,
    private readonly changes: OrderChanges,
    private readonly tags: OrderTags,
    private readonly revenue: RevenueRecognition,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'order',
      fields: ORDER_EXPANSIONS,
      load: (ids) => this.orders.presentByIds(ids, (rows) => this.changes.present(rows)),
    });
    this.resources.registerRecords('order_line', this.lines, toOrderLineResource, ORDER_LINE_EXPANSIONS);
  }

  /** Creates a draft; `origin` links a document made by the system (a late-fee invoice) to its source. */
  async create(input: OrderInput, origin: { sourceOrderId?: string } = {}): Promise<OrderResource> {
    return this.tx.run(async () => {
      const accountId = input.account_id ?? null;
      const party = newDocumentParty(
        input,
        accountId === null ? null : await this.accounts.findById(accountId),
      );
      const record = await this.orders.create(
        newDraftValues(input, party, party.currency ?? (await this.baseCurrency()), origin),
      );
      await this.changes.replaceLines(record, input.lines ?? []);
      const resource = await this.changes.presentOne(await this.orders.save(record));
      await this.changes.publish('order.created', resource);
      if (isInvoiceType(party.documentType)) await this.events.publish('invoice.created', resource);
      return resource;
    });
  }

  /**
   * Creates many drafts in one go (a bulk import's batch) with create()'s rules and events: one
   * read of their accounts, their lines priced together (OrderChanges.linesOfNew), one insert of
   * the orders, one of their lines, one outbox write. Returns, in input order, each order or the
   * DomainError that refused it (nothing of a refused input is written).
   */
  async createMany(inputs: readonly OrderInput[]): Promise<(OrderResource | DomainError)[]> {
    return this.tx.run(async () => {
      const accountIds = [...new Set(inputs.flatMap((i) => (i.account_id ? [i.account_id] : [])))];
      const accounts = new Map((await this.accounts.findByIds(accountIds)).map((a) => [a.id, a]));
      let base: string | undefined;
      const results: (OrderResource | DomainError)[] = new Array(inputs.length);
      const pending: { index: number; values: ReturnType<typeof newDraftValues> }[] = [];
      for (const [index, input] of inputs.entries()) {
        try {
          const account = input.account_id ? (accounts.get(input.account_id) ?? null) : null;
          const party = newDocumentParty(input, account);
          const currency = party.currency ?? (base ??= await this.baseCurrency());
          pending.push({ index, values: newDraftValues(input, party, currency) });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          results[index] = error;
        }
      }
      const records = this.orders.buildMany(pending.map((p) => p.values));
      const drafts = pending.map(({ index }, i) => ({ index, record: records[i] }));
      const lines = await this.changes.linesOfNew(
        drafts.map(({ index, record }) => ({ record, inputs: inputs[index].lines ?? [] })),
      );
      const accepted: OrderRecord[] = [];
      drafts.forEach(({ index, record }, i) => {
        const found = lines[i];
        if (found instanceof DomainError) results[index] = found;
        else accepted.push(record);
      });
      await this.orders.insertBuilt(accepted);
      await this.lines.insertAll(lines.flatMap((l) => (l instanceof DomainError ? [] : l)));
      const resources = await this.changes.present(accepted);
      const byId = new Map(resources.map((r) => [r.id, r]));
      drafts.forEach(({ index, record }) => {
        const resource = byId.get(record.id);
        if (resource) results[index] = resource;
      });
      await this.changes.publishMany(
        resources.flatMap((resource) => [
          { type: 'order.created', resource },
          ...(isInvoiceType(resource.document_type as DocumentType)
            ? [{ type: 'invoice.created', resource }]
            : []),
        ]),
      );
      return results;
    });
  }

  async list(query: OrderListQuery, url: string): Promise<ListPage<OrderResource>> {
    const direction = query.sort === 'created_at_asc' || query.sort === 'created_at' ? 'asc' : 'desc';
    const page = await this.orders.list(query, url, { direction, defaultTypes: DEFAULT_LIST_TYPES });
    return listEnvelope(await this.changes.present(page.rows), page, url);
  }

  async retrieve(id: string): Promise<OrderResource> {
    return this.changes.presentOne(await this.orders.getById(id));
  }

  /** Changes fields and (when `lines` is sent) replaces every line; a change after sending revises a confirmed order. */
  async update(id: string, input: OrderInput): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      const before = await this.changes.presentOne(record);
      const touchesDocument = input.lines !== undefined || input.account_id !== undefined;
      assertUpdate(stateOf(record), touchesDocument);
      if (input.account_id !== undefined && input.account_id !== record.accountId) {
        assertAccountChange(record.orderStatus as OrderStatus);
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
        await this.revenue.assertLinesUnrecognised(record.id);
        await this.lines.deleteOfOrder(record.id);
        await this.changes.replaceLines(record, input.lines);
      }
      return this.changes.saveChange(record, before, input.lines !== undefined);
    });
  }

  /**
   * Deletes a draft (any document type) with its lines and tags; anything past draft is 409
   * invalid_state (cancel or void it instead). A quote or sales order it was converted from can
   * be converted again.
   */
  async delete(id: string): Promise<{ id: string; object: 'order'; deleted: true }> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      orderTransition('delete', stateOf(record));
      const resource = await this.changes.presentOne(record);
      await this.tags.detachAll(record.id);
      await this.orders.delete(record);
      await this.changes.publish('order.deleted', resource);
      return { id: record.id, object: 'order' as const, deleted: true as const };
    });
  }

  /** Closes a confirmed or fulfilled order: nothing more will happen to it. */
  async close(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(id);
      const previous = record.orderStatus;
      record.orderStatus = orderTransition('close', stateOf(record));
      record.closedAt = new Date();
      const resource = await this.changes.presentOne(await this.orders.save(record));
      await this.commitments.orderChanged(record);
      await this.changes.publish('order.updated', resource, { order_status: previous, closed_at: null });
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
      const sourceAfter = orderTransition('convert', stateOf(source));
      const targetType = conversionTarget(source.documentType as DocumentType) as DocumentType;
      const target = await this.orders.create({
        ...this.copyable(source),
        documentType: targetType,
        orderStatus: 'draft',
        paymentStatus: 'unpaid',
        sourceOrderId: source.id,
      });
      const sourceLines = await this.lines.ofOrder(source.id);
      await this.lines.insertMany(this.kitLines.copiesFor(sourceLines, target.id));
      await this.changes.recompute(target);
      const created = await this.changes.presentOne(await this.orders.save(target));
      const sourceBefore = source.orderStatus;
      source.convertedToId = target.id;
      if (sourceAfter !== source.orderStatus) {
        source.orderStatus = sourceAfter;
        source.closedAt = new Date();
      }
      const converted = await this.changes.presentOne(await this.orders.save(source));
      await this.changes.publish('order.created', created);
      if (isInvoiceType(targetType)) await this.events.publish('invoice.created', created);
      await this.changes.publish('order.converted', converted, {
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
      orderTransition('send', stateOf(record));
      const previous = record.sentToCustomerAt;
      record.sentToCustomerAt = new Date();
      // Sending the revised document is not an acknowledgment: the customer must still acknowledge.
      const resource = await this.changes.presentOne(await this.orders.save(record));
      await this.changes.publish('order.updated', resource, {
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
      const resource = await this.changes.presentOne(await this.orders.save(record));
      await this.changes.publish('order.revision_acknowledged', resource, {
        revision: { acknowledged: false },
      });
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
    this.settle(record);
    return { resource: await this.changes.presentOne(await this.orders.save(record)), previous };
  }

  /**
   * For returns: a credit memo of `amount` on an issued invoice (what it bills drops by it), or
   * a refund recorded on a return document (`refunded`); recomputes the payment status.
   */
  async applyCredit(
    record: OrderRecord,
    amount: Decimal,
  ): Promise<{ resource: OrderResource; previous: Partial<OrderResource> }> {
    const before = await this.changes.presentOne(record);
    if (record.documentType === 'return') {
      record.amountRefunded = record.amountRefunded.plus(amount);
      record.paymentStatus = 'refunded';
    } else {
      record.amountCredited = record.amountCredited.plus(amount);
      this.settle(record);
    }
    const resource = await this.changes.presentOne(await this.orders.save(record));
    return {
      resource,
      previous: {
        payment_status: before.payment_status,
        amount_credited: before.amount_credited,
        amount_refunded: before.amount_refunded,
        amount_due: before.amount_due,
      },
    };
  }

  /** payment_status and amount_due from the money the document holds. */
  private settle(record: OrderRecord): void {
    settleAmounts(record);
    if (record.collectionStatus === 'overdue' && record.amountDue.lte(0)) {
      // Paid in full: no longer overdue (a later refund leaves it for the collections job to find again).
      record.collectionStatus = 'current';
      record.overdueAt = null;
    }
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
      amountCredited: money(0),
      ...unstartedLifecycle(),
      notes: o.notes,
      metadata: { ...o.metadata },
    };
  }

  private async baseCurrency(): Promise<string> {
    const entity = await this.profiles.current();
    if (!entity) throw notFound('entity');
    return entity.baseCurrency;
  }
}
