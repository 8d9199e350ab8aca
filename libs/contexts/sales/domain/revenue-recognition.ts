import Decimal from 'decimal.js';

/**
 * Revenue recognition of sales-order lines: the one rule every poster asks (shipments, invoices,
 * storefront imports, returns, voids).
 *
 * Per order line two cumulative counters are kept: `shipped` (units shipped, less units returned)
 * and `billed` (units invoiced or imported, less units of voided invoices). The line's recognised
 * units are max(shipped, billed), capped at the line's quantity: a unit is recognised by whichever
 * document reaches it first, and once only. An event that moves a counter recognises (or, moving
 * it down, reverses) the value of the recognised units after the event minus their value before.
 *
 * Values are cumulative: the value of k units is round(amount * k / quantity) to 4 places, for
 * the net amount and the tax alike, so the units of a line always add up to its amounts exactly.
 * Unbilled receivables of a line are its recognised value less its billed value.
 */

/** The money of one order line: quantity, net (subtotal less discounts) and tax. */
export interface LineTerms {
  quantity: Decimal.Value;
  net: Decimal.Value;
  tax: Decimal.Value;
}

/** The cumulative counters of a line. */
export interface LineProgress {
  shipped: Decimal;
  billed: Decimal;
}

/** A net amount and its tax. */
export interface NetAndTax {
  net: Decimal;
  tax: Decimal;
}

/** What one event does to a line: the counters after it and the signed moves of value. */
export interface LineRecognition {
  after: LineProgress;
  /** Revenue and tax recognised by the event (negative: reversed). */
  recognized: NetAndTax;
  /** Change of the line's billed value (what receivables or clearing take over). */
  billed: NetAndTax;
  /** Change of the line's unbilled receivables: recognized - billed. */
  unbilled: NetAndTax;
}

const ZERO = new Decimal(0);

export const noProgress = (): LineProgress => ({ shipped: ZERO, billed: ZERO });

const clampUnits = (units: Decimal, quantity: Decimal) => Decimal.max(ZERO, Decimal.min(units, quantity));

/** The cumulative value (net and tax) of the first `units` units of a line. */
export function valueOfUnits(line: LineTerms, units: Decimal.Value): NetAndTax {
  const quantity = new Decimal(line.quantity);
  if (quantity.lte(0)) return { net: ZERO, tax: ZERO };
  const k = clampUnits(new Decimal(units), quantity);
  const share = (amount: Decimal.Value) =>
    new Decimal(amount).times(k).dividedBy(quantity).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  return { net: share(line.net), tax: share(line.tax) };
}

/** The units of a line recognised under its counters. */
export function recognizedUnits(line: LineTerms, progress: LineProgress): Decimal {
  return clampUnits(Decimal.max(progress.shipped, progress.billed), new Decimal(line.quantity));
}

/** The revenue recognised so far on a line. */
export function recognizedValue(line: LineTerms, progress: LineProgress): NetAndTax {
  return valueOfUnits(line, recognizedUnits(line, progress));
}

/** The unbilled receivables of a line: what is recognised and not billed. */
export function unbilledValue(line: LineTerms, progress: LineProgress): NetAndTax {
  return minus(recognizedValue(line, progress), valueOfUnits(line, progress.billed));
}

/** How many of `wanted` units a document may still bill on the line (billing stops at its quantity). */
export function billableUnits(line: LineTerms, progress: LineProgress, wanted: Decimal.Value): Decimal {
  const room = Decimal.max(ZERO, new Decimal(line.quantity).minus(progress.billed));
  return Decimal.max(ZERO, Decimal.min(new Decimal(wanted), room));
}

/**
 * Applies one event to a line: `shipped` and `billed` are the signed changes of the counters
 * (a return is a negative shipment, a void a negative billing). Counters never go below zero.
 */
export function recognize(
  line: LineTerms,
  before: LineProgress,
  change: { shipped?: Decimal.Value; billed?: Decimal.Value },
): LineRecognition {
  const after: LineProgress = {
    shipped: Decimal.max(ZERO, before.shipped.plus(change.shipped ?? 0)),
    billed: Decimal.max(ZERO, before.billed.plus(change.billed ?? 0)),
  };
  const recognized = minus(recognizedValue(line, after), recognizedValue(line, before));
  const billed = minus(valueOfUnits(line, after.billed), valueOfUnits(line, before.billed));
  return { after, recognized, billed, unbilled: minus(recognized, billed) };
}

/**
 * Of `returned` units received back on a line, those a credit memo may take back: as far as the
 * line bills more units than stay shipped (units never billed were reversed at their receipt).
 */
export function creditableUnits(progress: LineProgress, returned: Decimal.Value): Decimal {
  const surplus = Decimal.max(ZERO, progress.billed.minus(progress.shipped));
  return Decimal.max(ZERO, Decimal.min(new Decimal(returned), surplus));
}

/**
 * How many whole units of `candidates` a credit memo worth `cover` takes back on a line: the most
 * whose reversal (value of recognised units before less after un-billing them, net plus tax)
 * fits in `cover`, to half a cent. Answers the units and that reversal.
 */
export function unitsCoveredByCredit(
  line: LineTerms,
  before: LineProgress,
  candidates: Decimal.Value,
  cover: Decimal.Value,
): { units: Decimal; reversed: NetAndTax } {
  const limit = new Decimal(cover).plus(0.005);
  for (let k = Math.floor(Number(candidates)); k > 0; k--) {
    const r = recognize(line, before, { billed: -k });
    const reversed = { net: r.recognized.net.negated(), tax: r.recognized.tax.negated() };
    if (reversed.net.plus(reversed.tax).lte(limit)) return { units: new Decimal(k), reversed };
  }
  return { units: ZERO, reversed: { net: ZERO, tax: ZERO } };
}

export const sumOf = (values: readonly NetAndTax[]): NetAndTax =>
  values.reduce((a, b) => ({ net: a.net.plus(b.net), tax: a.tax.plus(b.tax) }), { net: ZERO, tax: ZERO });

function minus(a: NetAndTax, b: NetAndTax): NetAndTax {
  return { net: a.net.minus(b.net), tax: a.tax.minus(b.tax) };
}

/** A line as billing matches it: id, product (or description when none) and units. */
export interface BillableLine {
  id: string;
  productId: string | null;
  description: string;
  quantity: Decimal.Value;
}

/**
 * The units an invoice bills on each line of its source order: each invoice line takes units
 * from the order lines of the same product (the same description when it has none), in order,
 * up to each order line's quantity. Answers the units per order line id and, per invoice line,
 * the units no order line took (billed by the invoice on its own).
 */
export function matchInvoiceLines(
  orderLines: readonly BillableLine[],
  invoiceLines: readonly BillableLine[],
): { units: Map<string, Decimal>; unmatched: Map<string, Decimal> } {
  const room = new Map(orderLines.map((l) => [l.id, new Decimal(l.quantity)]));
  const units = new Map<string, Decimal>();
  const unmatched = new Map<string, Decimal>();
  const key = (l: BillableLine) => (l.productId ? `p:${l.productId}` : `d:${l.description}`);
  for (const inv of invoiceLines) {
    let left = new Decimal(inv.quantity);
    for (const line of orderLines) {
      if (left.lte(0)) break;
      if (key(line) !== key(inv)) continue;
      const take = Decimal.min(left, room.get(line.id)!);
      if (take.lte(0)) continue;
      room.set(line.id, room.get(line.id)!.minus(take));
      units.set(line.id, (units.get(line.id) ?? ZERO).plus(take));
      left = left.minus(take);
    }
    if (left.gt(0)) unmatched.set(inv.id, left);
  }
  return { units, unmatched };
}
