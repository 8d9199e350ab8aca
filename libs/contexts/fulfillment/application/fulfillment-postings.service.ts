import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService, PostingLine } from '#contexts/accounting';
import { money } from '#platform/persistence/money';

/**
 * Fulfillment's journal entries, by control-account role on the entity's business day
 * (docs/api-decisions.md, "Fulfillment: postings"). Lines of zero are left out; an entry with
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
   * debit receivables and credit revenue (and sales tax) for the shipped units' share of their
   * order lines: revenue of a sales order is recognised when its units ship. `entryDate` is the
   * business day when the caller read it already (see businessDay()); `newPackage` says the
   * package was created in the caller's transaction, so no entry can exist for it yet.
   */
  fulfillment(
    packageId: string,
    packageNumber: string,
    cost: Decimal,
    net: Decimal,
    tax: Decimal,
    options: { entryDate?: string; newPackage?: boolean } = {},
  ) {
    return this.post(
      'FULFILLMENT',
      packageId,
      `Fulfillment of package ${packageNumber}`,
      [
        { role: 'cogs', debit: cost, description: 'Cost of goods shipped' },
        { role: 'inventory', credit: cost, description: 'Inventory shipped' },
        { role: 'receivables', debit: net.plus(tax), description: 'Shipped to the customer' },
        { role: 'revenue', credit: net, description: 'Revenue of the shipped units' },
        { role: 'tax', credit: tax, description: 'Sales tax of the shipped units' },
      ],
      options.entryDate,
      options.newPackage,
    );
  }

  /** The entity's business day, the date of the entries (read ahead by a caller holding a lock later). */
  businessDay(): Promise<string> {
    return this.settings.currentBusinessDay();
  }

  /** RETURN: the mirror of the revenue side for the returned units (debit revenue and tax, credit receivables). */
  returnRevenue(receiptId: string, packageNumber: string, net: Decimal, tax: Decimal) {
    return this.post('RETURN', receiptId, `Return against package ${packageNumber}`, [
      { role: 'revenue', debit: net, description: 'Revenue of the returned units' },
      { role: 'tax', debit: tax, description: 'Sales tax of the returned units' },
      { role: 'receivables', credit: net.plus(tax), description: 'Returned by the customer' },
    ]);
  }

  /** COGS_REVERSAL: the returned units back into inventory at the cost they left at. */
  cogsReversal(receiptId: string, packageNumber: string, value: Decimal) {
    return this.post('COGS_REVERSAL', receiptId, `Cost of goods returned against package ${packageNumber}`, [
      { role: 'inventory', debit: value, description: 'Inventory returned' },
      { role: 'cogs', credit: value, description: 'Cost of goods returned' },
    ]);
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
    entryDate?: string,
    newSource?: boolean,
  ) {
    const kept = lines.filter((l) => money(l.debit ?? 0).gt(0) || money(l.credit ?? 0).gt(0));
    if (kept.length === 0) return null;
    return this.ledger.post({
      source_type: sourceType,
      source_id: sourceId,
      source_module: 'fulfillment',
      entry_date: entryDate ?? (await this.settings.currentBusinessDay()),
      description,
      lines: kept,
      ...(newSource ? { new_source: true } : {}),
    });
  }
}
