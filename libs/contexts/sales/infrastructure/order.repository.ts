import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { CREATED_TIME_FILTERS, listFilters } from '#platform/persistence/list-filters';
import { isUuid } from '#platform/persistence/ids';
import { PageFilter, TenantRepository } from '#platform/persistence/tenant-repository';
import { OrderRecord } from './order.entity';
import type { PostalAddress } from '#platform/reference-lists/postal-address';
import { SHIPPING_ADDRESS_OF_A } from './account.repository';

export interface OrderListFilters {
  document_type?: string;
  account_id?: string;
  order_status?: string;
  payment_status?: string;
  created_after?: string;
  created_before?: string;
}

/** What makes an invoice open: its document type and order status among these, and an amount due. */
export interface OpenInvoiceKinds {
  documentTypes: readonly string[];
  orderStatuses: readonly string[];
}

/** An invoice the collections sweep looks at, with the tenant it belongs to. */
export interface CollectionCandidate {
  id: string;
  entityId: string;
  livemode: boolean;
}

/** An order's state with its lines' quantities and amounts (numeric columns as text), read by OrderRepository.withLineAmounts. */
export interface OrderWithLineAmounts {
  id: string;
  document_type: string;
  order_status: string;
  account_id: string | null;
  currency: string;
  sent_to_customer_at: Date | null;
  revised_at: Date | null;
  revision_acknowledged_at: Date | null;
  lines: {
    id: string;
    product_id: string | null;
    quantity: string;
    subtotal: string;
    discount_total: string;
    tax_total: string;
  }[];
  /** With `withRecipient`: the order's account (name, email, shipping address), null without one. */
  recipient?: { name: string; email: string | null; shipping_address: PostalAddress | null } | null;
}

@Injectable()
export class OrderRepository extends TenantRepository.of(OrderRecord, 'order') {
  /**
   * The order's document type, statuses, account, currency and revision times with its lines'
   * ids, products, quantities and amounts in position order, and with `withRecipient` its
   * account's name, email and shipping address, by one statement; null when the caller's entity
   * and mode have no order with this id.
   */
  async withLineAmounts(id: string, withRecipient = false): Promise<OrderWithLineAmounts | null> {
    if (!isUuid(id)) return null;
    const { entityId, livemode } = this.scope();
    const recipient = withRecipient
      ? `(SELECT json_build_object('name', a.name, 'email', a.email, 'shipping_address', ${SHIPPING_ADDRESS_OF_A})
            FROM accounts a
           WHERE a.entity_id = o.entity_id AND a.livemode = o.livemode AND a.id = o.account_id) AS recipient,`
      : '';
    const [row] = (await this.tx.manager.query(
      `SELECT o.id, o.document_type, o.order_status, o.account_id, o.currency, o.sent_to_customer_at,
              o.revised_at, o.revision_acknowledged_at, ${recipient}
              COALESCE((
                SELECT json_agg(json_build_object(
                         'id', l.id, 'product_id', l.product_id, 'quantity', l.quantity::text,
                         'subtotal', l.subtotal::text, 'discount_total', l.discount_total::text,
                         'tax_total', l.tax_total::text) ORDER BY l.position)
                FROM order_lines l
                WHERE l.entity_id = o.entity_id AND l.livemode = o.livemode AND l.order_id = o.id
              ), '[]'::json) AS lines
       FROM orders o
       WHERE o.entity_id = $1 AND o.livemode = $2 AND o.id = $3`,
      [entityId, livemode, id],
    )) as OrderWithLineAmounts[];
    return row ?? null;
  }

  /**
   * A page of orders in `direction` of creation, filtered by document type (`defaultTypes`
   * without one), account, statuses and creation time. Column filters only, so the page runs as
   * one prepared statement (TenantRepository.page).
   */
  list(
    query: ListQueryDto & OrderListFilters,
    url: string,
    options: { direction: 'asc' | 'desc'; defaultTypes: readonly string[] },
  ) {
    const documentType: PageFilter = query.document_type
      ? { sql: 'document_type = ?', value: query.document_type }
      : { sql: 'document_type = ANY(?::text[])', value: options.defaultTypes };
    const filters = listFilters(query, {
      equal: ['account_id', 'order_status', 'payment_status'],
      where: CREATED_TIME_FILTERS,
    });
    return this.page(query, { url, direction: options.direction }, [documentType, ...filters]);
  }

  /**
   * Issued invoices of every entity and mode with something due and a due date before `before`
   * (the collections sweep's candidates, oldest due first); served by orders_collections_due.
   */
  async collectionCandidatesAcrossEntities(before: string): Promise<CollectionCandidate[]> {
    const rows: { id: string; entity_id: string; livemode: boolean }[] = await this.tx.dataSource.query(
      `SELECT id, entity_id, livemode FROM orders
        WHERE document_type = 'invoice' AND due_date IS NOT NULL AND amount_due > 0
          AND order_status IN ('confirmed', 'fulfilled', 'closed') AND due_date < $1
        ORDER BY due_date, id`,
      [before],
    );
    return rows.map((r) => ({ id: r.id, entityId: r.entity_id, livemode: r.livemode }));
  }

  /**
   * The caller's order locked for the rest of the transaction, or null when another transaction
   * holds its lock (SKIP LOCKED: a concurrent sweep is handling it) or it does not exist.
   */
  lockUnlessHeld(id: string): Promise<OrderRecord | null> {
    return this.scopedQuery('r')
      .andWhere('r.id = :id', { id })
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getOne();
  }

  /** The caller's oldest open invoices (by id), at most `limit`. */
  oldestOpenInvoices(kinds: OpenInvoiceKinds, limit: number): Promise<OrderRecord[]> {
    return this.openInvoices(kinds).orderBy('r.id', 'ASC').limit(limit).getMany();
  }

  /** The open invoices among `invoiceIds` of one account, locked in id order for the rest of the transaction. */
  openInvoicesForUpdate(
    kinds: OpenInvoiceKinds,
    accountId: string,
    invoiceIds: string[],
  ): Promise<OrderRecord[]> {
    return this.openInvoices(kinds)
      .andWhere('r.account_id = :accountId AND r.id IN (:...invoiceIds)', { accountId, invoiceIds })
      .orderBy('r.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The amount due on the caller's open invoices confirmed on or before `asOf` (a decimal string), or null. */
  async openAmountDue(kinds: OpenInvoiceKinds, asOf: string): Promise<string | null> {
    const row = await this.openInvoices(kinds)
      .andWhere('r.confirmed_at < CAST(:asOf AS date) + 1', { asOf })
      .select('COALESCE(SUM(r.amount_due), 0)', 'sum')
      .getRawOne<{ sum: string }>();
    return row?.sum ?? null;
  }

  private openInvoices(kinds: OpenInvoiceKinds) {
    return this.scopedQuery('r').andWhere(
      'r.document_type IN (:...types) AND r.order_status IN (:...statuses) AND r.amount_due > 0',
      { types: kinds.documentTypes, statuses: kinds.orderStatuses },
    );
  }
}
