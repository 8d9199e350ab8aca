import { Injectable } from '@nestjs/common';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { shipmentMovements, StockLedger } from './stock-ledger.service';
import { ShipmentLine } from './stock-movements.types';

/**
 * Historical shipments brought over from a previous system (data migration, the QA seed,
 * benchmarks): `fulfillment` ledger rows of sales order lines dated when they happened, valued
 * at the moving average like any shipment, with one FULFILLMENT journal entry (COGS) for their
 * total on the business day. Allocations are not touched: history was never allocated here.
 */
@Injectable()
export class StockHistoryService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly ledger: StockLedger,
    private readonly posting: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
  ) {}

  async importShipments(input: {
    orderId: string;
    batches: { occurredAt: Date; lines: ShipmentLine[] }[];
  }): Promise<{ totalCost: string; journalEntryId: string | null }> {
    return this.tx.run(async () => {
      const sourceId = newId();
      let total = money(0);
      const plans = [];
      for (const batch of input.batches) {
        const plan = await this.ledger.plan(
          shipmentMovements(batch.lines, { sourceType: 'history', sourceId, orderId: input.orderId }),
        );
        total = total.minus(StockLedger.totalValue(plan.movements));
        // Applied batch by batch: the next plan values against the balance this one left.
        await this.ledger.apply(plan, { occurredAt: batch.occurredAt });
        plans.push(plan);
      }
      if (total.isZero()) return { totalCost: total.toFixed(4), journalEntryId: null };
      const entry = await this.posting.post({
        source_type: 'FULFILLMENT',
        source_id: sourceId,
        source_module: 'inventory',
        entry_date: await this.settings.currentBusinessDay(),
        description: `Historical shipments of order ${input.orderId}`,
        lines: [
          { role: 'cogs', debit: total },
          { role: 'inventory', credit: total },
        ],
      });
      return { totalCost: total.toFixed(4), journalEntryId: entry.id };
    });
  }
}
