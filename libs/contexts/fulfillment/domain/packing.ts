import { FulfillmentError } from './fulfillment-error';

/** An order line as packing sees it. */
export interface PackableLine {
  id: string;
  productId: string | null;
  /** Whole units ordered. */
  quantity: number;
}

export interface RequestedItem {
  order_item_id?: string | null;
  product_id?: string | null;
  quantity: number;
  serial_numbers?: string[] | null;
}

export interface ResolvedItem {
  index: number;
  orderItemId: string;
  productId: string;
  quantity: number;
  serialNumbers: string[];
}

/** The units of each order line over the packages whose status is one of `statuses`. */
export function unitsIn(
  byStatus: ReadonlyMap<string, ReadonlyMap<string, number>>,
  statuses: readonly string[],
): Map<string, number> {
  const units = new Map<string, number>();
  for (const status of statuses)
    for (const [line, n] of byStatus.get(status) ?? []) units.set(line, (units.get(line) ?? 0) + n);
  return units;
}

/** What is left to pack on each line: the line quantity minus the units in this order's non-void packages. */
export function remainingByLine(lines: PackableLine[], packed: Map<string, number>): Map<string, number> {
  return new Map(lines.map((l) => [l.id, Math.max(0, l.quantity - (packed.get(l.id) ?? 0))]));
}

/**
 * Matches request items to order lines and checks quantities against what is left to pack
 * (counting earlier items of the same request). An item with `order_item_id` names its line;
 * one with only `product_id` takes the first line of that product with units left (else the
 * first line of that product, so the error names the quantity). 422 quantity_exceeds_remaining
 * with `param: items[n].quantity`; 400 parameter_invalid when the line or product is not on the
 * order; 422 serial_duplicate for a serial repeated in the request.
 */
export function resolveItems(
  requested: RequestedItem[],
  lines: PackableLine[],
  remaining: Map<string, number>,
): ResolvedItem[] {
  const left = new Map(remaining);
  const seenSerials = new Map<string, number>();
  return requested.map((item, index) => {
    let line: PackableLine | undefined;
    if (item.order_item_id) {
      line = lines.find((l) => l.id === item.order_item_id);
      if (!line)
        throw new FulfillmentError('parameter_invalid', {
          param: `items[${index}].order_item_id`,
          hint: `Order item '${item.order_item_id}' is not a line of this order.`,
        });
      if (item.product_id && line.productId !== item.product_id)
        throw new FulfillmentError('parameter_invalid', {
          param: `items[${index}].product_id`,
          hint: `Order item '${line.id}' is for product '${line.productId}', not '${item.product_id}'.`,
        });
    } else if (item.product_id) {
      const ofProduct = lines.filter((l) => l.productId === item.product_id);
      if (ofProduct.length === 0)
        throw new FulfillmentError('parameter_invalid', {
          param: `items[${index}].product_id`,
          hint: `Product '${item.product_id}' is not on any line of this order.`,
        });
      line = ofProduct.find((l) => (left.get(l.id) ?? 0) >= item.quantity) ?? ofProduct[0];
    } else {
      throw new FulfillmentError('parameter_missing', {
        param: `items[${index}].product_id`,
        hint: 'An item needs order_item_id or product_id.',
      });
    }
    if (!line.productId)
      throw new FulfillmentError('parameter_invalid', {
        param: `items[${index}].order_item_id`,
        hint: `Order item '${line.id}' has no product; only product lines are packed.`,
      });
    const available = left.get(line.id) ?? 0;
    if (item.quantity > available)
      throw new FulfillmentError('quantity_exceeds_remaining', {
        param: `items[${index}].quantity`,
        hint: `Order item '${line.id}' has ${available} unit(s) left to pack; ${item.quantity} requested.`,
        details: { remaining_quantity: available },
      });
    left.set(line.id, available - item.quantity);
    const serialNumbers = item.serial_numbers ?? [];
    serialNumbers.forEach((serial, s) => {
      if (seenSerials.has(serial))
        throw new FulfillmentError('serial_duplicate', {
          param: `items[${index}].serial_numbers[${s}]`,
          hint: `Serial '${serial}' appears more than once in this request.`,
        });
      seenSerials.set(serial, index);
    });
    return { index, orderItemId: line.id, productId: line.productId, quantity: item.quantity, serialNumbers };
  });
}

/** 400 unless a serial-tracked item carries exactly one serial per unit (and others carry none). */
export function assertSerialCount(item: ResolvedItem, serialTracked: boolean): void {
  if (serialTracked && item.serialNumbers.length !== item.quantity)
    throw new FulfillmentError(item.serialNumbers.length === 0 ? 'parameter_missing' : 'parameter_invalid', {
      param: `items[${item.index}].serial_numbers`,
      hint: `Product '${item.productId}' is serial-tracked: send one serial per unit (${item.quantity}), got ${item.serialNumbers.length}.`,
    });
  if (!serialTracked && item.serialNumbers.length > 0)
    throw new FulfillmentError('parameter_invalid', {
      param: `items[${item.index}].serial_numbers`,
      hint: `Product '${item.productId}' is not serial-tracked; send no serial_numbers.`,
    });
}

/** True when every product line's quantity is covered by shipped (or later) packages. */
export function allLinesShipped(lines: PackableLine[], shipped: Map<string, number>): boolean {
  const productLines = lines.filter((l) => l.productId);
  return productLines.length > 0 && productLines.every((l) => (shipped.get(l.id) ?? 0) >= l.quantity);
}
