import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { allowedFrom, transition, Transitions, withMoves } from '#platform/domain/state-machine';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from './sales-error';

/** Order documents: one resource, several document types (`/orders`, `document_type`). */
export const DOCUMENT_TYPES = [
  'quote',
  'sales_order',
  'invoice',
  'return',
  'purchase_order',
  'late_fee_invoice',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** What GET /orders lists without a document_type filter. */
export const DEFAULT_LIST_TYPES: readonly DocumentType[] = ['quote', 'sales_order', 'invoice'];
/** Documents that are receivables once issued (posted as INVOICE / LATE_FEE, accept payments). */
export const INVOICE_TYPES: readonly DocumentType[] = ['invoice', 'late_fee_invoice'];
export const isInvoiceType = (t: string): boolean => (INVOICE_TYPES as readonly string[]).includes(t);

export const ORDER_STATUSES = ['draft', 'confirmed', 'fulfilled', 'closed', 'cancelled', 'voided'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A line as a caller asks for it (the API body's snake_case fields; prices filled in when absent). */
export interface OrderLineInput {
  product_id?: string | null;
  description?: string;
  quantity: number;
  unit_price?: number;
  discount_percent?: number;
  discount_amount?: number;
  tax_rate?: number;
}

export type OrderAction =
  'confirm' | 'cancel' | 'void' | 'fulfill' | 'close' | 'convert' | 'send' | 'edit' | 'pay' | 'delete';

/** The facts the state machine needs about one order. */
export interface OrderState {
  documentType: DocumentType;
  orderStatus: OrderStatus;
  /** Net amount paid (payments minus refunds). */
  amountPaid: Decimal;
  /** What credit memos took off the document (absent: none). */
  amountCredited?: Decimal;
  convertedToId: string | null;
}

/**
 * The order state machine (docs/api-decisions.md, Sales, "Order state machines"), one table per document type:
 *   draft --confirm--> confirmed --fulfill--> fulfilled --close--> closed
 *   confirmed --close--> closed
 *   draft | confirmed (not an invoice, nothing paid) --cancel--> cancelled
 *   confirmed (nothing paid, nothing credited) --void--> voided
 *   draft --delete--> (gone)
 * Quotes convert to sales orders (the quote closes), confirmed or fulfilled sales orders to
 * invoices (once each; the sales order keeps its status). Lines change (edit) in draft, and in
 * confirmed quotes and sales orders. Invoices take payments once confirmed. Sending, editing,
 * paying and deleting keep the status.
 */
const QUOTE: Transitions<OrderStatus, OrderAction> = {
  draft: {
    confirm: 'confirmed',
    cancel: 'cancelled',
    convert: 'closed',
    send: 'draft',
    edit: 'draft',
    delete: 'draft',
  },
  confirmed: {
    cancel: 'cancelled',
    void: 'voided',
    close: 'closed',
    convert: 'closed',
    send: 'confirmed',
    edit: 'confirmed',
  },
  fulfilled: { close: 'closed' },
  closed: {},
  cancelled: {},
  voided: {},
};

/** Returns and purchase orders: fulfilled (received) once confirmed; lines change in draft only. */
const RETURN_OR_PURCHASE_ORDER: Transitions<OrderStatus, OrderAction> = {
  draft: { confirm: 'confirmed', cancel: 'cancelled', send: 'draft', edit: 'draft', delete: 'draft' },
  confirmed: {
    cancel: 'cancelled',
    void: 'voided',
    fulfill: 'fulfilled',
    close: 'closed',
    send: 'confirmed',
  },
  fulfilled: { close: 'closed' },
  closed: {},
  cancelled: {},
  voided: {},
};

/**
 * Sales orders: as returns and purchase orders, and besides they convert to invoices once
 * confirmed (keeping their status) and their lines change while confirmed.
 */
const SALES_ORDER = withMoves(RETURN_OR_PURCHASE_ORDER, {
  confirmed: { convert: 'confirmed', edit: 'confirmed' },
  fulfilled: { convert: 'fulfilled' },
});

/** Invoices and late-fee invoices: cancelled only as drafts, paid once confirmed. */
const INVOICE: Transitions<OrderStatus, OrderAction> = {
  draft: { confirm: 'confirmed', cancel: 'cancelled', send: 'draft', edit: 'draft', delete: 'draft' },
  confirmed: { void: 'voided', close: 'closed', send: 'confirmed', pay: 'confirmed' },
  fulfilled: { close: 'closed', pay: 'fulfilled' },
  closed: { pay: 'closed' },
  cancelled: {},
  voided: {},
};

const TRANSITIONS: Record<DocumentType, Transitions<OrderStatus, OrderAction>> = {
  quote: QUOTE,
  sales_order: SALES_ORDER,
  invoice: INVOICE,
  return: RETURN_OR_PURCHASE_ORDER,
  purchase_order: RETURN_OR_PURCHASE_ORDER,
  late_fee_invoice: INVOICE,
};

/** The statuses `action` may start from for this document type. */
export function orderAllowedFrom(action: OrderAction, state: OrderState): readonly OrderStatus[] {
  return allowedFrom(TRANSITIONS[state.documentType], action);
}

/**
 * The status `action` leads the order to; 409 invalid_state (hint names the current status) when
 * `action` is not allowed now: not for this document type, not from this status, not while paid
 * (cancel, void), or already converted (convert).
 */
export function orderTransition(action: OrderAction, state: OrderState): OrderStatus {
  const next = transition(TRANSITIONS[state.documentType], state.orderStatus, action, (status, from) =>
    from.length === 0
      ? new SalesError('invalid_state', {
          hint: `A ${state.documentType} cannot be ${describe(action)}; its order_status is '${status}'.`,
        })
      : new SalesError('invalid_state', {
          hint: `This ${state.documentType} has order_status '${status}'; it can be ${describe(action)} only when ${from.map((s) => `'${s}'`).join(' or ')}.`,
        }),
  );
  if ((action === 'cancel' || action === 'void') && state.amountPaid.gt(0)) {
    throw new SalesError('invalid_state', {
      hint: `This ${state.documentType} has payments (payment_status is not 'unpaid'); refund them before it can be ${describe(action)}.`,
    });
  }
  if ((action === 'cancel' || action === 'void') && state.amountCredited?.gt(0)) {
    // Its credit memos already reversed part of what it posted; a void would reverse it again.
    throw new SalesError('invalid_state', {
      hint: `This ${state.documentType} has credit memos (amount_credited ${state.amountCredited.toFixed(2)}); it cannot be ${describe(action)}.`,
    });
  }
  if (action === 'convert' && state.convertedToId) {
    throw new SalesError('invalid_state', {
      hint: `This ${state.documentType} (order_status '${state.orderStatus}') was already converted to order '${state.convertedToId}'.`,
    });
  }
  return next;
}

const describe = (action: OrderAction): string =>
  ({
    confirm: 'confirmed',
    cancel: 'cancelled',
    void: 'voided',
    fulfill: 'fulfilled',
    close: 'closed',
    convert: 'converted',
    send: 'sent',
    edit: 'edited',
    pay: 'paid',
    delete: 'deleted',
  })[action];

/**
 * A PATCH of an order: a change of its lines or account follows the edit rule; its notes and
 * metadata change on any order that is not cancelled or voided (the edit rule refuses those).
 */
export function assertUpdate(state: OrderState, touchesDocument: boolean): void {
  if (touchesDocument || state.orderStatus === 'cancelled' || state.orderStatus === 'voided') {
    orderTransition('edit', state);
  }
}

/** The account of an order changes only while it is a draft (409 invalid_state on account_id). */
export function assertAccountChange(status: OrderStatus): void {
  if (status !== 'draft') {
    throw new SalesError('invalid_state', {
      param: 'account_id',
      hint: `The account of an order can change only while its order_status is 'draft'; it is '${status}'.`,
    });
  }
}

/**
 * The most lines an order holds: the lines sent by callers, whichever route adds them (create,
 * PATCH replacing the lines, `POST /orders/{id}/lines`, bulk and storefront imports). The
 * component lines a kit line brings with it do not count.
 */
export const MAX_ORDER_LINES = 1000;

/** 400 parameter_invalid on `param` unless an order holding `held` lines can take `adding` more. */
export function assertLineCapacity(held: number, adding: number, param = 'lines'): void {
  if (held + adding > MAX_ORDER_LINES)
    throw invalidParam(
      param,
      held === 0
        ? `An order holds at most ${MAX_ORDER_LINES} lines; ${adding} were sent.`
        : `An order holds at most ${MAX_ORDER_LINES} lines; this one has ${held}, so ${adding} more cannot be added.`,
    );
}

/** A confirmed order holds stock commitments, so a change of its lines moves them. */
export const linesHoldCommitments = (status: OrderStatus): boolean => status === 'confirmed';

/** An invoice is posted to the ledger when confirmed: cancelling or voiding it afterwards reverses that posting. */
export const isPostedInvoice = (documentType: string, status: OrderStatus): boolean =>
  isInvoiceType(documentType) && status !== 'draft';

/** What a conversion creates: quote → sales_order, sales_order → invoice. */
export function conversionTarget(type: DocumentType): DocumentType | null {
  if (type === 'quote') return 'sales_order';
  if (type === 'sales_order') return 'invoice';
  return null;
}

/**
 * payment_status from the money: `refunded` once nothing paid is left and either something was
 * refunded or credit memos took the whole total off, `paid` when the net covers the total less
 * credits, `partially_paid` when something is paid, else `unpaid` (an unpaid invoice that a
 * credit memo reduced stays `unpaid` while something is due).
 */
export function paymentStatusOf(
  total: Decimal,
  netPaid: Decimal,
  refunded: Decimal,
  credited: Decimal = money(0),
): PaymentStatus {
  if (netPaid.lte(0))
    return refunded.gt(0) || (credited.gt(0) && total.minus(credited).lte(0)) ? 'refunded' : 'unpaid';
  if (netPaid.gte(total.minus(credited))) return 'paid';
  return 'partially_paid';
}

/**
 * amount_due: what is left to pay of the total less credits, never negative; nothing is due on a
 * cancelled or voided document.
 */
export function amountDueOf(
  status: OrderStatus,
  total: Decimal,
  netPaid: Decimal,
  credited: Decimal = money(0),
): Decimal {
  if (status === 'cancelled' || status === 'voided') return money(0);
  const due = total.minus(credited).minus(netPaid);
  return due.isNegative() ? money(0) : due;
}

/**
 * Revisions: a change to a confirmed order after it was sent to the customer marks it revised;
 * it stays unacknowledged until the customer acknowledges the new total.
 */
export interface RevisionState {
  orderStatus: OrderStatus;
  sentToCustomerAt: Date | null;
  revisedAt: Date | null;
  revisionAcknowledgedAt: Date | null;
}

export const isRevisionPending = (s: RevisionState): boolean =>
  s.revisedAt !== null && (s.revisionAcknowledgedAt === null || s.revisionAcknowledgedAt < s.revisedAt);

/** True when an edit now makes the order revised (confirmed and already sent). */
export const editRevises = (s: RevisionState): boolean =>
  s.orderStatus === 'confirmed' && s.sentToCustomerAt !== null;

/** The statuses of an issued invoice: confirmed and not cancelled or voided (a receivable; it takes payments). */
export const ISSUED_STATUSES: readonly OrderStatus[] = ['confirmed', 'fulfilled', 'closed'];
export const isIssuedStatus = (status: string): boolean =>
  (ISSUED_STATUSES as readonly string[]).includes(status);

/** A confirmed sales order: the only order packages are made for and serials allocated to. */
export const isConfirmedSalesOrder = (documentType: string, orderStatus: string): boolean =>
  documentType === 'sales_order' && orderStatus === 'confirmed';

/** Fulfillment's gate: 422 order_not_confirmed unless a confirmed sales order; 409 while a revision is unacknowledged. */
export function assertReadyForFulfillment(
  s: RevisionState & { documentType: DocumentType; id: string },
): void {
  if (!isConfirmedSalesOrder(s.documentType, s.orderStatus)) {
    throw new SalesError('order_not_confirmed', {
      param: 'order_id',
      hint: `Order '${s.id}' is a ${s.documentType} with order_status '${s.orderStatus}'; only a confirmed sales order can be fulfilled.`,
    });
  }
  if (isRevisionPending(s)) {
    throw new SalesError('revision_unacknowledged', {
      hint: `Order '${s.id}' was revised after the customer received it and the customer has not acknowledged the new total. POST /v1/orders/${s.id}/customer-acknowledge-revision first.`,
    });
  }
}

/** The order events a purchase order also announces in the purchasing family. */
const PURCHASING_COMPANIONS: Readonly<Record<string, string>> = {
  'order.created': 'purchasing.purchase_order.created',
  'order.updated': 'purchasing.purchase_order.updated',
  'order.line.added': 'purchasing.purchase_order.updated',
  'order.line.updated': 'purchasing.purchase_order.updated',
  'order.line.removed': 'purchasing.purchase_order.updated',
  'order.confirmed': 'purchasing.purchase_order.confirmed',
  'order.cancelled': 'purchasing.purchase_order.cancelled',
  'order.voided': 'purchasing.purchase_order.cancelled',
};

/**
 * The purchasing event that accompanies an order event of a purchase order (null for other
 * documents and for order events without a purchasing counterpart, e.g. order.deleted).
 */
export function purchasingCompanion(documentType: string, orderEvent: string): string | null {
  if (documentType !== 'purchase_order') return null;
  return PURCHASING_COMPANIONS[orderEvent] ?? null;
}
