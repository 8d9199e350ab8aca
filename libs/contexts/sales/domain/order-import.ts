import Decimal from 'decimal.js';
import { OrderLineInput } from './order';
import { SalesError } from './sales-error';

/** What an `orders` import record may ask for after the create: leave the order a draft, or confirm it. */
export const ORDER_IMPORT_STATUSES = ['draft', 'confirmed'] as const;
export type OrderImportStatus = (typeof ORDER_IMPORT_STATUSES)[number];

/** The import record's optional `status` (default `draft`); anything else is parameter_invalid naming `status`. */
export function orderImportStatus(value: unknown): OrderImportStatus {
  if (value === undefined) return 'draft';
  if (typeof value === 'string' && (ORDER_IMPORT_STATUSES as readonly string[]).includes(value)) {
    return value as OrderImportStatus;
  }
  throw new SalesError('parameter_invalid', {
    param: 'status',
    hint: `status must be one of ${ORDER_IMPORT_STATUSES.join(', ')} (default draft).`,
  });
}

/** The content of an import record (the POST /orders body). */
export interface ImportedOrderContent {
  document_type?: string;
  account_id?: string | null;
  currency?: string;
  lines?: OrderLineInput[];
  notes?: string | null;
  metadata?: Record<string, unknown>;
}

/** The stored order as the API shows it. */
export interface StoredOrderContent {
  document_type: string;
  account_id: string | null;
  currency: string;
  notes: string | null;
  metadata: Record<string, unknown>;
  lines: {
    product_id: string | null;
    description: string;
    quantity: number;
    unit_price: number;
    discount_percent: number;
    discount_amount: number;
    tax_rate: number;
  }[];
}

const sameAmount = (a: number, b: number) => new Decimal(a).eq(b);

/**
 * Whether an order past draft already carries what a re-imported record says. Compared: the
 * document type (default sales_order), and, when the record gives them, account_id, currency
 * (case-insensitive), notes, metadata (each key given; null or '' means absent) and lines (same
 * count, in order: quantity, discounts and tax rate (default 0) always; product_id, description
 * and unit_price when given: absent ones were defaulted from the product when the order was made).
 */
export function sameImportedOrder(order: StoredOrderContent, record: ImportedOrderContent): boolean {
  if ((record.document_type ?? 'sales_order') !== order.document_type) return false;
  if (record.account_id !== undefined && (record.account_id ?? null) !== order.account_id) return false;
  if (record.currency !== undefined && record.currency.toUpperCase() !== order.currency) return false;
  if (record.notes !== undefined && (record.notes ?? null) !== order.notes) return false;
  if (record.metadata !== undefined) {
    for (const [key, value] of Object.entries(record.metadata)) {
      const absent = value === null || value === '';
      if (absent ? key in order.metadata : order.metadata[key] !== value) return false;
    }
  }
  if (record.lines !== undefined) {
    if (record.lines.length !== order.lines.length) return false;
    return record.lines.every((wanted, i) => {
      const line = order.lines[i];
      return (
        sameAmount(wanted.quantity, line.quantity) &&
        sameAmount(wanted.discount_percent ?? 0, line.discount_percent) &&
        sameAmount(wanted.discount_amount ?? 0, line.discount_amount) &&
        sameAmount(wanted.tax_rate ?? 0, line.tax_rate) &&
        (wanted.product_id === undefined || (wanted.product_id ?? null) === line.product_id) &&
        (wanted.description === undefined || wanted.description === line.description) &&
        (wanted.unit_price === undefined || sameAmount(wanted.unit_price, line.unit_price))
      );
    });
  }
  return true;
}
