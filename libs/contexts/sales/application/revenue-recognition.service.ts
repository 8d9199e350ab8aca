import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import {
  creditableUnits,
  LineTerms,
  matchInvoiceLines,
  NetAndTax,
  recognize,
  sumOf,
  unitsCoveredByCredit,
  valueOfUnits,
} from '../domain/revenue-recognition';
import { SalesError } from '../domain/sales-error';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';
import { OrderRepository } from '../infrastructure/order.repository';
import {
  OrderLineRevenueRepository,
  RevenueRecognitionRepository,
} from '../infrastructure/revenue-recognition.repository';

/** Units of one sales-order line moved by a document. */
export interface LineUnits {
  orderLineId: string;
  units: Decimal.Value;
}

/** What an event recognised over the lines it touched (signed: negative amounts are reversals). */
export interface RecognitionOutcome {
  /** Revenue and tax recognised now (credit revenue and tax; negative: debit them). */
  recognized: NetAndTax;
  /** Value of the units billed now (what receivables, or the channel's clearing, take over). */
  billed: NetAndTax;
  /** Change of unbilled receivables: recognized - billed. */
  unbilled: NetAndTax;
}

/** How an invoice's total splits under the recognition rule. */
export interface InvoiceRecognition extends RecognitionOutcome {
  /** The invoice's net and tax beyond the value of the order-line units it bills: recognised by the invoice itself. */
  direct: NetAndTax;
  /** The value of units the storefront import of the source order already billed: settled by the channel. */
  settledByChannel: NetAndTax;
}

const ZERO = (): NetAndTax => ({ net: money(0), tax: money(0) });
const termsOf = (l: OrderLineRecord): LineTerms => ({
  quantity: l.quantity,
  net: money(l.subtotal).minus(l.discountTotal),
  tax: money(l.taxTotal),
});
const plus = (a: NetAndTax, b: NetAndTax): NetAndTax => ({ net: a.net.plus(b.net), tax: a.tax.plus(b.tax) });
const minus = (a: NetAndTax, b: NetAndTax): NetAndTax => ({
  net: a.net.minus(b.net),
  tax: a.tax.minus(b.tax),
});
const negate = (a: NetAndTax): NetAndTax => ({ net: a.net.negated(), tax: a.tax.negated() });

/**
 * The one owner of revenue recognition of sales orders (docs/reference/accounting.md, "Revenue
 * recognition"): shipments, returns, invoices, voids and storefront imports tell it which units
 * of which order lines they move, and it answers what to recognise, from the counters of the
 * order's lines read and written under a row lock in the caller's transaction. The posters write
 * the entries; none of them decides on its own what revenue is.
 */
@Injectable()
export class RevenueRecognition {
  constructor(
    private readonly counters: OrderLineRevenueRepository,
    private readonly movements: RevenueRecognitionRepository,
    private readonly lines: OrderLineRepository,
    private readonly orders: OrderRepository,
  ) {}

  /** Units shipped in a package (`documentId`): answers the revenue and tax they recognise. */
  shipped(orderId: string, documentId: string, units: readonly LineUnits[]): Promise<RecognitionOutcome> {
    return this.apply(
      orderId,
      documentId,
      units.map((u) => ({ lineId: u.orderLineId, shipped: money(u.units), billed: money(0) })),
    );
  }

  /** Units received back by a return receipt (`documentId`): answers what it reverses (negative amounts). */
  returned(orderId: string, documentId: string, units: readonly LineUnits[]): Promise<RecognitionOutcome> {
    return this.apply(
      orderId,
      documentId,
      units.map((u) => ({ lineId: u.orderLineId, shipped: money(u.units).negated(), billed: money(0) })),
    );
  }

  /**
   * The units of a return a credit memo may still take back, and their value: per order line, the
   * units received back and not yet credited, as far as the line bills more units than it ships
   * (units never billed had their revenue reversed at receipt, so a credit memo has nothing of
   * theirs to reverse). Reads the counters under their lock; writes nothing.
   */
  async creditable(
    orderId: string,
    returned: readonly LineUnits[],
  ): Promise<{ units: LineUnits[]; value: NetAndTax }> {
    const wanted = returned.filter((u) => money(u.units).gt(0));
    if (wanted.length === 0) return { units: [], value: ZERO() };
    const progress = await this.counters.lockLines(
      orderId,
      wanted.map((u) => u.orderLineId),
    );
    const units: LineUnits[] = [];
    let value = ZERO();
    for (const u of wanted) {
      const row = progress.get(u.orderLineId);
      if (!row) continue;
      const line = row.terms;
      const k = creditableUnits({ shipped: money(row.shipped), billed: money(row.billed) }, u.units);
      if (k.lte(0)) continue;
      const r = recognize(
        line,
        { shipped: money(row.shipped), billed: money(row.billed) },
        { billed: k.negated() },
      );
      units.push({ orderLineId: u.orderLineId, units: k });
      value = plus(value, negate(r.recognized));
    }
    return { units, value };
  }

  /**
   * A credit memo (`documentId`) taking back returned units that were billed: it un-bills, line by
   * line in the given order, as many whole units of `candidates` as `amount` covers at the value
   * the rule reverses for them. Answers what it reversed (positive amounts).
   */
  async credited(
    orderId: string,
    documentId: string,
    candidates: readonly LineUnits[],
    amount: Decimal,
  ): Promise<NetAndTax> {
    const wanted = candidates.filter((u) => money(u.units).gt(0));
    if (wanted.length === 0) return ZERO();
    const progress = await this.counters.lockLines(
      orderId,
      wanted.map((u) => u.orderLineId),
    );
    const changes: { lineId: string; shipped: Decimal; billed: Decimal }[] = [];
    let left = amount;
    for (const u of wanted) {
      const row = progress.get(u.orderLineId);
      if (!row) continue;
      const line = row.terms;
      const before = { shipped: money(row.shipped), billed: money(row.billed) };
      const { units: take, reversed } = unitsCoveredByCredit(line, before, u.units, left);
      if (take.isZero()) break;
      changes.push({ lineId: u.orderLineId, shipped: money(0), billed: take.negated() });
      left = left.minus(reversed.net.plus(reversed.tax));
    }
    return negate((await this.apply(orderId, documentId, changes)).recognized);
  }

  /** The units and value earlier credit memos (`documentIds`) took back, per order line. */
  async creditedBy(documentIds: readonly string[]): Promise<{ units: Map<string, Decimal>; value: Decimal }> {
    const units = new Map<string, Decimal>();
    let value = money(0);
    for (const id of documentIds)
      for (const m of await this.movements.ofDocument(id)) {
        units.set(m.orderLineId, (units.get(m.orderLineId) ?? money(0)).minus(m.billed));
        value = value.minus(m.net).minus(m.tax);
      }
    return { units, value };
  }

  /**
   * Refuses (409 invalid_state) an edit that would drop or reprice order lines holding shipped or
   * billed units (`lineIds`; every line of the order when omitted): their counters, and what was
   * recognised on them, belong to those lines.
   */
  async assertLinesUnrecognised(
    orderId: string,
    lineIds?: readonly string[],
    action = 'replaced',
  ): Promise<void> {
    const held = (await this.counters.ofOrder(orderId)).filter(
      (r) => (!lineIds || lineIds.includes(r.id)) && (money(r.shipped).gt(0) || money(r.billed).gt(0)),
    );
    if (held.length === 0) return;
    const line = held[0];
    throw new SalesError('invalid_state', {
      hint: `Order line '${line.id}' has ${money(line.shipped).toFixed(0)} unit(s) shipped and ${money(line.billed).toFixed(0)} billed (invoiced or imported), so it cannot be ${action}: revenue was recognised on it. Add a line for more units, or change only its description.`,
    });
  }

  /** A storefront import bills every unit of the order it created (the channel was paid). */
  async billedByImport(orderId: string): Promise<RecognitionOutcome> {
    const lines = await this.lines.ofOrder(orderId);
    return this.apply(
      orderId,
      orderId,
      lines.map((l) => ({ lineId: l.id, shipped: money(0), billed: money(l.quantity) })),
    );
  }

  /** An invoice being issued: the units it bills on its source sales order, and the split of its total. */
  async invoiceIssued(invoice: OrderRecord): Promise<InvoiceRecognition> {
    return this.invoiceChange(invoice, 1);
  }

  /** An issued invoice being voided: the mirror of its billing under the counters as they are now. */
  async invoiceVoided(invoice: OrderRecord): Promise<InvoiceRecognition> {
    return this.invoiceChange(invoice, -1);
  }

  private async invoiceChange(invoice: OrderRecord, sign: 1 | -1): Promise<InvoiceRecognition> {
    const whole: NetAndTax = {
      net: money(invoice.subtotal).minus(invoice.discountTotal),
      tax: money(invoice.taxTotal),
    };
    const source =
      invoice.documentType === 'invoice' && invoice.sourceOrderId
        ? await this.orders.findById(invoice.sourceOrderId)
        : null;
    if (!source || source.documentType !== 'sales_order') {
      const direct = sign === 1 ? whole : negate(whole);
      return { ...ZERO_OUTCOME(), direct, settledByChannel: ZERO() };
    }
    const orderLines = await this.lines.ofOrder(source.id);
    const invoiceLines = await this.lines.ofOrder(invoice.id);
    const { units } = matchInvoiceLines(orderLines, invoiceLines);
    const terms = new Map(orderLines.map((l) => [l.id, termsOf(l)]));
    // Units billed by the import of the source order, which an invoice of it does not bill again.
    const imported = new Map(
      (await this.movements.ofDocument(source.id)).map((m) => [m.orderLineId, money(m.billed)]),
    );
    let outcome: RecognitionOutcome;
    const changes: { lineId: string; shipped: Decimal; billed: Decimal }[] = [];
    let settled = ZERO();
    if (sign === 1) {
      const progress = await this.counters.lockLines(source.id, [...units.keys()]);
      for (const [lineId, wanted] of units) {
        const row = progress.get(lineId)!;
        const room = Decimal.max(0, money(terms.get(lineId)!.quantity).minus(row.billed));
        const billed = Decimal.min(wanted, room);
        const byChannel = Decimal.min(wanted.minus(billed), imported.get(lineId) ?? money(0));
        if (byChannel.gt(0)) settled = plus(settled, valueOfUnits(terms.get(lineId)!, byChannel));
        changes.push({ lineId, shipped: money(0), billed });
      }
      outcome = await this.apply(source.id, invoice.id, changes);
    } else {
      const billedBefore = await this.movements.ofDocument(invoice.id);
      for (const [lineId, wanted] of units) {
        const billed = billedBefore
          .filter((m) => m.orderLineId === lineId)
          .reduce((sum, m) => sum.plus(m.billed), money(0));
        const byChannel = Decimal.min(wanted.minus(billed), imported.get(lineId) ?? money(0));
        if (byChannel.gt(0)) settled = plus(settled, valueOfUnits(terms.get(lineId)!, byChannel));
        changes.push({ lineId, shipped: money(0), billed: billed.negated() });
      }
      outcome = await this.apply(source.id, invoice.id, changes);
      settled = negate(settled);
    }
    const signedWhole = sign === 1 ? whole : negate(whole);
    const direct = minus(minus(signedWhole, outcome.billed), settled);
    return { ...outcome, direct, settledByChannel: settled };
  }

  /**
   * Moves the counters of the order's lines under their row lock, records what the document
   * moved on each, and answers the sums of what the rule recognises: one statement locks and
   * reads the counters with the lines' terms, one writes the counters and the moves.
   */
  private async apply(
    orderId: string,
    documentId: string,
    changes: readonly { lineId: string; shipped: Decimal; billed: Decimal }[],
  ): Promise<RecognitionOutcome> {
    const moving = changes.filter((c) => !c.shipped.isZero() || !c.billed.isZero());
    if (moving.length === 0) return ZERO_OUTCOME();
    const progress = await this.counters.lockLines(
      orderId,
      moving.map((c) => c.lineId),
    );
    const results: RecognitionOutcome[] = [];
    const records = [];
    for (const change of moving) {
      const row = progress.get(change.lineId);
      if (!row) continue;
      const line = row.terms;
      const r = recognize(line, { shipped: row.shipped, billed: row.billed }, change);
      // Shipped and billed units never go past the line's quantity.
      row.shipped = Decimal.min(r.after.shipped, line.quantity);
      row.billed = Decimal.min(r.after.billed, line.quantity);
      results.push(r);
      records.push({
        orderId,
        orderLineId: change.lineId,
        documentId,
        shipped: change.shipped,
        billed: change.billed,
        net: r.recognized.net,
        tax: r.recognized.tax,
      });
    }
    await this.movements.record([...progress.values()], records);
    return {
      recognized: sumOf(results.map((r) => r.recognized)),
      billed: sumOf(results.map((r) => r.billed)),
      unbilled: sumOf(results.map((r) => r.unbilled)),
    };
  }
}

const ZERO_OUTCOME = (): RecognitionOutcome => ({ recognized: ZERO(), billed: ZERO(), unbilled: ZERO() });
