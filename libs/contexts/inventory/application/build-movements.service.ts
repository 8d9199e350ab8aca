import { Injectable } from '@nestjs/common';
import { AccountingSettingsService } from '../../accounting/application/accounting-settings.service';
import { LedgerPostingService } from '../../accounting/application/ledger-posting.service';
import { money } from '../../../platform/persistence/money';
import { StockLedger } from './stock-ledger.service';

export interface BuildMovementInput {
  buildId: string;
  kitProductId: string;
  locationId: string;
  /** Kits built (> 0). */
  quantity: number;
  /** Units drawn per component (> 0 each); `param` is what insufficient_stock names. */
  components: { productId: string; quantity: number; param: string }[];
  description: string;
}

export interface BuildMovementResult {
  components: { productId: string; quantity: number; unitCost: string; value: string }[];
  /** What the components cost: the kit's output value. */
  totalCost: string;
  unitCost: string;
  journalEntryId: string | null;
}

/**
 * Builds (kit assembly) on the stock ledger: `build_consumption` rows draw the components at
 * their moving-average cost, one `build_output` row adds the kits at exactly what the components
 * cost, and one MANUFACTURING journal entry moves that value from component to kit inventory,
 * all in the caller's transaction. Observers see the rows like any other movement.
 */
@Injectable()
export class BuildMovementsService {
  constructor(
    private readonly ledger: StockLedger,
    private readonly posting: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
  ) {}

  async postBuild(input: BuildMovementInput): Promise<BuildMovementResult> {
    const source = { sourceType: 'build', sourceId: input.buildId };
    const consumption = await this.ledger.plan(
      input.components.map((c) => ({
        productId: c.productId,
        variantId: null,
        locationId: input.locationId,
        type: 'build_consumption' as const,
        quantity: -c.quantity,
        param: c.param,
        ...source,
      })),
    );
    const total = StockLedger.totalValue(consumption.movements).negated();
    const unitCost = total.dividedBy(input.quantity).toDecimalPlaces(4);
    let journalEntryId: string | null = null;
    if (!total.isZero()) {
      const entry = await this.posting.post({
        source_type: 'MANUFACTURING',
        source_id: input.buildId,
        source_module: 'inventory',
        entry_date: await this.settings.currentBusinessDay(),
        description: input.description,
        lines: [
          { role: 'inventory', debit: total, location_id: input.locationId },
          { role: 'inventory', credit: total, location_id: input.locationId },
        ],
      });
      journalEntryId = entry.id;
    }
    await this.ledger.apply(consumption, { journalEntryId });
    const output = await this.ledger.plan([
      {
        productId: input.kitProductId,
        variantId: null,
        locationId: input.locationId,
        type: 'build_output',
        quantity: input.quantity,
        unitCost,
        ...source,
      },
    ]);
    // The kits carry exactly what the components cost (the unit cost is rounded, the value is not).
    const planned = output.movements[0];
    const balance = planned.balance;
    balance.value = money(balance.value.minus(planned.value).plus(total));
    if (balance.onHand > 0)
      balance.unitCost = money(balance.value.dividedBy(balance.onHand).toDecimalPlaces(4));
    planned.value = money(total);
    await this.ledger.apply(output, { journalEntryId });
    return {
      components: consumption.movements.map((m) => ({
        productId: m.productId,
        quantity: -m.quantity,
        unitCost: m.unitCostApplied.toFixed(4),
        value: m.value.negated().toFixed(4),
      })),
      totalCost: total.toFixed(4),
      unitCost: unitCost.toFixed(4),
      journalEntryId,
    };
  }
}
