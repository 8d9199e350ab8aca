import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountingSettingsService, LedgerPostingService, PostingLine, SourceType } from '../../accounting';

/**
 * Inventory's journal entries, posted through accounting's posting service by control-account
 * role on the entity's business day. Nothing is posted for a zero value (a movement at zero cost).
 * Every source (an adjustment, a transfer, a receipt) is created with a new id in the same
 * transaction as its entry, so the postings skip the duplicate-source check (`new_source`).
 */
@Injectable()
export class InventoryPostings {
  constructor(
    private readonly ledger: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
  ) {}

  /**
   * INVENTORY_ADJUSTMENT / CYCLE_COUNT: a gain debits inventory and credits the adjustment
   * account; a loss debits the adjustment account and credits inventory.
   */
  adjustment(
    sourceType: 'INVENTORY_ADJUSTMENT' | 'CYCLE_COUNT',
    sourceId: string,
    value: Decimal,
    description: string,
  ) {
    return this.post(sourceType, sourceId, description, value, 'inventory', 'inventory_adjustment');
  }

  /** PO_RECEIPT: debit inventory, credit goods received not billed (cleared by the vendor bill). */
  receipt(sourceId: string, value: Decimal, description: string) {
    return this.post('PO_RECEIPT', sourceId, description, value, 'inventory', 'received_not_billed');
  }

  /** INVENTORY_TRANSFER: inventory to inventory at cost, each side tagged with its location; no P&L. */
  async transfer(
    sourceId: string,
    value: Decimal,
    fromLocationId: string,
    toLocationId: string,
    description: string,
  ) {
    if (value.isZero()) return null;
    return this.ledger.post({
      source_type: 'INVENTORY_TRANSFER',
      source_id: sourceId,
      source_module: 'inventory',
      new_source: true,
      entry_date: await this.settings.currentBusinessDay(),
      description,
      lines: [
        { role: 'inventory', debit: value.abs(), location_id: toLocationId },
        { role: 'inventory', credit: value.abs(), location_id: fromLocationId },
      ],
    });
  }

  private async post(
    sourceType: SourceType,
    sourceId: string,
    description: string,
    value: Decimal,
    debitRole: PostingLine['role'],
    creditRole: PostingLine['role'],
  ) {
    if (value.isZero()) return null;
    const amount = value.abs();
    const [debit, credit] = value.isPositive() ? [debitRole, creditRole] : [creditRole, debitRole];
    return this.ledger.post({
      source_type: sourceType,
      source_id: sourceId,
      source_module: 'inventory',
      new_source: true,
      entry_date: await this.settings.currentBusinessDay(),
      description,
      lines: [
        { role: debit!, debit: amount },
        { role: credit!, credit: amount },
      ],
    });
  }
}
