import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { RequestContext } from '#platform/tenancy/request-context';
import {
  AccountingSettingsService,
  businessDay,
  LedgerPostingService,
  PostingLine,
  PostingRequest,
  SourceType,
} from '#contexts/accounting';
import { StockFactsCache } from '../infrastructure/stock-facts.cache';

/**
 * Inventory's journal entries by control-account role on the entity's business day: a receipt's
 * posted through accounting's posting service, an adjustment's and a transfer's built here and
 * written with their stock movement (SharedMovementWrites). Nothing is posted for a zero value (a movement at zero cost).
 * Every source (an adjustment, a transfer, a receipt) is created with a new id in the same
 * transaction as its entry, so the postings skip the duplicate-source check (`new_source`).
 * The entity's time zone is kept in the StockFactsCache until the entity row changes.
 */
@Injectable()
export class InventoryPostings {
  constructor(
    private readonly ledger: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly cache: StockFactsCache,
  ) {}

  /** Today in the entity's time zone. */
  async businessDay(): Promise<string> {
    const timezone = await this.cache.fact(
      RequestContext.caller().entityId,
      (facts) => facts.timezone,
      () => this.settings.timezone(),
      (facts, tz) => {
        facts.timezone = tz;
        return true;
      },
    );
    return businessDay(timezone);
  }

  /** PO_RECEIPT: debit inventory, credit goods received not billed (cleared by the vendor bill). */
  async receipt(sourceId: string, value: Decimal, description: string) {
    return this.post(
      this.twoLines(
        'PO_RECEIPT',
        sourceId,
        description,
        value,
        'inventory',
        'received_not_billed',
        await this.businessDay(),
      ),
    );
  }

  /**
   * INVENTORY_ADJUSTMENT / CYCLE_COUNT on `entryDate`: a gain debits inventory and credits the
   * adjustment account; a loss debits the adjustment account and credits inventory (null for a
   * zero value: nothing is posted).
   */
  adjustmentRequest(
    sourceType: 'INVENTORY_ADJUSTMENT' | 'CYCLE_COUNT',
    sourceId: string,
    value: Decimal,
    description: string,
    entryDate: string,
  ): PostingRequest | null {
    return this.twoLines(
      sourceType,
      sourceId,
      description,
      value,
      'inventory',
      'inventory_adjustment',
      entryDate,
    );
  }

  /**
   * INVENTORY_TRANSFER on `entryDate`: inventory to inventory at cost, each side tagged with its
   * location; no P&L (null for a zero value).
   */
  transferRequest(
    sourceId: string,
    value: Decimal,
    fromLocationId: string,
    toLocationId: string,
    description: string,
    entryDate: string,
  ): PostingRequest | null {
    return this.request('INVENTORY_TRANSFER', sourceId, description, entryDate, value, (amount) => [
      { role: 'inventory', debit: amount, location_id: toLocationId },
      { role: 'inventory', credit: amount, location_id: fromLocationId },
    ]);
  }

  private async post(request: PostingRequest | null) {
    return request ? this.ledger.post(request) : null;
  }

  private twoLines(
    sourceType: SourceType,
    sourceId: string,
    description: string,
    value: Decimal,
    debitRole: PostingLine['role'],
    creditRole: PostingLine['role'],
    entryDate: string,
  ): PostingRequest | null {
    const [debit, credit] = value.isPositive() ? [debitRole, creditRole] : [creditRole, debitRole];
    return this.request(sourceType, sourceId, description, entryDate, value, (amount) => [
      { role: debit!, debit: amount },
      { role: credit!, credit: amount },
    ]);
  }

  /** A new source's posting of `value`'s absolute amount; null for a zero value (nothing is posted). */
  private request(
    sourceType: SourceType,
    sourceId: string,
    description: string,
    entryDate: string,
    value: Decimal,
    lines: (amount: Decimal) => PostingLine[],
  ): PostingRequest | null {
    if (value.isZero()) return null;
    return {
      source_type: sourceType,
      source_id: sourceId,
      source_module: 'inventory',
      new_source: true,
      entry_date: entryDate,
      description,
      lines: lines(value.abs()),
    };
  }
}
