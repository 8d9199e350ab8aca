import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService, PostingLine } from '#contexts/accounting';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';

/**
 * Fulfillment's journal entries, by control-account role on the entity's business day
 * (docs/api-decisions.md, Fulfillment, "Packages, labels, insurance and shipping"). Lines of zero are left out; an entry with
 * nothing left is not posted.
 */
@Injectable()
export class FulfillmentPostings {
  constructor(
    private readonly ledger: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
  ) {}

  /**
   * FULFILLMENT of a shipped package: debit COGS and credit inventory at the inventory cost;
   * debit unbilled receivables and credit revenue (and sales tax) for the shipped units' share of
   * their order lines: revenue of a sales order is recognised when its units ship, and the
   * customer owes it once the invoice (which moves it to receivables) is issued.
   */
  fulfillment(packageId: string, packageNumber: string, cost: Decimal, net: Decimal, tax: Decimal) {
    return this.post(
      'FULFILLMENT',
      packageId,
      `Fulfillment of package ${packageNumber}`,
      this.fulfillmentLines(cost, net, tax),
      newId(),
    );
  }

  /**
   * FULFILLMENT of a package created and shipped in the caller's transaction: a new source, so
   * no entry can exist for it yet (the ledger skips its duplicate-source check).
   */
  fulfillmentOfNewPackage(
    pkg: { id: string; packageNumber: string },
    shipment: { cost: Decimal; net: Decimal; tax: Decimal },
  ) {
    return this.post(
      'FULFILLMENT',
      pkg.id,
      `Fulfillment of package ${pkg.packageNumber}`,
      this.fulfillmentLines(shipment.cost, shipment.net, shipment.tax),
      newId(),
      true,
    );
  }

  private fulfillmentLines(cost: Decimal, net: Decimal, tax: Decimal): PostingLine[] {
    return [
      { role: 'cogs', debit: cost, description: 'Cost of goods shipped' },
      { role: 'inventory', credit: cost, description: 'Inventory shipped' },
      { role: 'unbilled_receivables', debit: net.plus(tax), description: 'Shipped, not yet invoiced' },
      { role: 'revenue', credit: net, description: 'Revenue of the shipped units' },
      { role: 'tax', credit: tax, description: 'Sales tax of the shipped units' },
    ];
  }

  /**
   * RETURN: the revenue and tax the returned units no longer recognise under sales' rule (units
   * not billed yet): debit revenue and tax, credit unbilled receivables. Units already billed keep
   * their revenue until the refund's credit memo takes it back. `batchId` is the receipt's batch.
   */
  returnRevenue(receiptId: string, packageNumber: string, net: Decimal, tax: Decimal, batchId: string) {
    return this.post(
      'RETURN',
      receiptId,
      `Return against package ${packageNumber}`,
      [
        { role: 'revenue', debit: net, description: 'Revenue of the returned units' },
        { role: 'tax', debit: tax, description: 'Sales tax of the returned units' },
        { role: 'unbilled_receivables', credit: net.plus(tax), description: 'Returned before invoicing' },
      ],
      batchId,
    );
  }

  /** COGS_REVERSAL: the returned units back into inventory at the cost they left at. */
  cogsReversal(receiptId: string, packageNumber: string, value: Decimal, batchId: string) {
    return this.post(
      'COGS_REVERSAL',
      receiptId,
      `Cost of goods returned against package ${packageNumber}`,
      [
        { role: 'inventory', debit: value, description: 'Inventory returned' },
        { role: 'cogs', credit: value, description: 'Cost of goods returned' },
      ],
      batchId,
    );
  }

  /**
   * LABEL_REFUND_DENIED: the carrier kept the price of a voided package's label: the cost moves
   * to cost of sales (freight out) against payables (what the carrier bills).
   */
  labelRefundDenied(packageId: string, packageNumber: string, amount: Decimal) {
    return this.post('LABEL_REFUND_DENIED', packageId, `Label refund denied for package ${packageNumber}`, [
      { role: 'cogs', debit: amount, description: 'Unrefunded shipping label' },
      { role: 'payables', credit: amount, description: 'Carrier label charge' },
    ]);
  }

  private async post(
    sourceType: 'FULFILLMENT' | 'RETURN' | 'COGS_REVERSAL' | 'LABEL_REFUND_DENIED',
    sourceId: string,
    description: string,
    lines: PostingLine[],
    batchId?: string,
    newSource = false,
  ) {
    const kept = keptLines(lines);
    if (kept.length === 0) return null;
    return this.ledger.post({
      source_type: sourceType,
      source_id: sourceId,
      source_module: 'fulfillment',
      entry_date: await this.settings.currentBusinessDay(),
      description,
      lines: kept,
      ...(batchId ? { batch_id: batchId } : {}),
      ...(newSource ? { new_source: true } : {}),
    });
  }
}

/** Lines of zero are left out. */
const keptLines = (lines: PostingLine[]) =>
  lines.filter((l) => money(l.debit ?? 0).gt(0) || money(l.credit ?? 0).gt(0));
