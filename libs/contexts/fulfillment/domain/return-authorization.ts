import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { transition, Transitions } from '#platform/domain/state-machine';
import { FulfillmentError } from './fulfillment-error';

export const RETURN_STATUSES = ['open', 'partially_received', 'received', 'refunded', 'cancelled'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/**
 * The moves of a return. A receipt is `receive` while units are still to come back and
 * `receive_rest` when it brings back the last of them; a refund is `refund` unless it refunds the
 * rest of what came back once every unit is back (`refund_rest`).
 */
export type ReturnAction = 'receive' | 'receive_rest' | 'refund' | 'refund_rest' | 'cancel';

/** One authorised line: units of a shipped order line that may come back. */
export interface AuthorizedLine {
  order_item_id: string;
  product_id: string | null;
  quantity: number;
  received_quantity: number;
}

/**
 * The return state machine (docs/api-decisions.md, Fulfillment, "Returns as a resource"):
 *   open | partially_received --receive--> partially_received --receive_rest--> received
 *   open --receive_rest (every unit at once)--> received
 *   partially_received | received --refund--> the same status
 *   received --refund_rest (the value of what came back is refunded)--> refunded
 *   open --cancel--> cancelled        (nothing received yet)
 */
const RETURN_TRANSITIONS: Transitions<ReturnStatus, ReturnAction> = {
  open: { receive: 'partially_received', receive_rest: 'received', cancel: 'cancelled' },
  partially_received: {
    receive: 'partially_received',
    receive_rest: 'received',
    refund: 'partially_received',
  },
  received: { refund: 'received', refund_rest: 'refunded' },
  refunded: {},
  cancelled: {},
};

const VERB: Record<ReturnAction, string> = {
  receive: 'received',
  receive_rest: 'received',
  refund: 'refunded',
  refund_rest: 'refunded',
  cancel: 'cancelled',
};

/**
 * The status `action` leads the return to; 409 invalid_state (the hint names the current status and
 * the statuses the action may start from) when the table does not allow it.
 */
export function returnTransition(action: ReturnAction, status: string, id: string): ReturnStatus {
  return transition(
    RETURN_TRANSITIONS,
    status,
    action,
    (current, from) =>
      new FulfillmentError('invalid_state', {
        hint: `Return '${id}' has status '${current}'; it can be ${VERB[action]} only when ${from
          .map((s) => `'${s}'`)
          .join(' or ')}.`,
      }),
  );
}

/** The status after a receipt: `received` once every authorised unit is back (the lines count the receipt). */
export const statusAfterReceipt = (authorization: {
  id: string;
  status: string;
  lines: readonly AuthorizedLine[];
}): ReturnStatus =>
  returnTransition(
    authorization.lines.every((l) => l.received_quantity >= l.quantity) ? 'receive_rest' : 'receive',
    authorization.status,
    authorization.id,
  );

/** The status after a refund: `refunded` once every unit is back and nothing received is left to refund. */
export const statusAfterRefund = (
  authorization: { id: string; status: string },
  receivedValue: Decimal,
  refunded: Decimal,
): ReturnStatus =>
  returnTransition(
    authorization.status === 'received' && refunded.gte(receivedValue) ? 'refund_rest' : 'refund',
    authorization.status,
    authorization.id,
  );

/**
 * Units of each shipped order line that a new return may still authorise: shipped units less
 * the units of the order's other returns that are not cancelled.
 */
export function returnableUnits(
  shipped: ReadonlyMap<string, number>,
  authorized: readonly (readonly AuthorizedLine[])[],
): Map<string, number> {
  const left = new Map(shipped);
  for (const lines of authorized)
    for (const l of lines) left.set(l.order_item_id, (left.get(l.order_item_id) ?? 0) - l.quantity);
  return left;
}

/** Throws 422 quantity_exceeds_remaining when a requested line asks more than is returnable. */
export function assertReturnable(
  requested: readonly { order_item_id: string; quantity: number }[],
  returnable: ReadonlyMap<string, number>,
): void {
  requested.forEach((line, index) => {
    const left = Math.max(0, returnable.get(line.order_item_id) ?? 0);
    if (line.quantity > left)
      throw new FulfillmentError('quantity_exceeds_remaining', {
        param: `lines[${index}].quantity`,
        hint: `Order line '${line.order_item_id}' has ${left} shipped unit(s) not yet on a return; ${line.quantity} asked.`,
        details: { remaining_quantity: left },
      });
  });
}

/**
 * The amount of a refund (the credit memo of a return): by default what came back and is not
 * refunded yet, capped at what the invoice can still be credited (its amount due plus what it
 * has paid and not refunded); an amount asked above either is 422 amount_exceeds_limit. Nothing
 * to refund is 422 amount_exceeds_limit too.
 */
export function refundAmountOf(
  requested: Decimal | undefined,
  received: { value: Decimal; refunded: Decimal },
  invoiceCreditable: Decimal,
): Decimal {
  const unrefunded = Decimal.max(0, received.value.minus(received.refunded));
  const creditable = Decimal.max(0, invoiceCreditable);
  if (requested !== undefined && requested.gt(unrefunded))
    throw new FulfillmentError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The units received back are worth ${unrefunded.toFixed(2)} not refunded yet; ${requested.toFixed(2)} asked.`,
    });
  if (requested !== undefined && requested.gt(creditable))
    throw new FulfillmentError('amount_exceeds_limit', {
      param: 'amount',
      hint: `The invoice has ${creditable.toFixed(2)} due or paid and not refunded; a credit memo cannot exceed it.`,
    });
  const amount = requested ?? Decimal.min(unrefunded, creditable);
  if (amount.lte(0))
    throw new FulfillmentError('amount_exceeds_limit', {
      param: 'amount',
      hint: `Nothing is left to refund: ${unrefunded.toFixed(2)} received and not refunded, ${creditable.toFixed(2)} due or paid on the invoice.`,
    });
  return amount;
}

/** Splits a refund into net and tax in the proportion of the received value. */
export function splitNetAndTax(
  amount: Decimal,
  received: { net: Decimal; tax: Decimal },
): { net: Decimal; tax: Decimal } {
  const whole = received.net.plus(received.tax);
  if (whole.lte(0)) return { net: amount, tax: money(0) };
  const tax = amount.times(received.tax).dividedBy(whole).toDecimalPlaces(2);
  return { net: amount.minus(tax), tax };
}

/**
 * Checks a receipt against what a return authorises: the package shipped for its order (400 on
 * package_id), each item on one of its lines (400) and within what is left of it (422
 * quantity_exceeds_remaining).
 */
export function assertReceiptAuthorized(
  authorization: { id: string; orderId: string; lines: readonly AuthorizedLine[] },
  packageOrderId: string,
  items: readonly { orderItemId: string; quantity: number }[],
): void {
  if (packageOrderId !== authorization.orderId)
    throw new FulfillmentError('parameter_invalid', {
      param: 'package_id',
      hint: `The package was not shipped for order '${authorization.orderId}' of return '${authorization.id}'.`,
    });
  const taken = new Map<string, number>();
  items.forEach((item, index) => {
    const line = authorization.lines.find((l) => l.order_item_id === item.orderItemId);
    if (!line)
      throw new FulfillmentError('parameter_invalid', {
        param: `items[${index}].package_item_id`,
        hint: `Return '${authorization.id}' has no line for order line '${item.orderItemId}'.`,
      });
    const left = line.quantity - line.received_quantity - (taken.get(line.order_item_id) ?? 0);
    if (item.quantity > left)
      throw new FulfillmentError('quantity_exceeds_remaining', {
        param: `items[${index}].quantity`,
        hint: `Return '${authorization.id}' authorises ${left} more unit(s) of order line '${line.order_item_id}'; ${item.quantity} received.`,
        details: { remaining_quantity: left },
      });
    taken.set(line.order_item_id, (taken.get(line.order_item_id) ?? 0) + item.quantity);
  });
}
