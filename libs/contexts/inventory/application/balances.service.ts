import { Injectable, OnModuleInit } from '@nestjs/common';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { crossingEvents, stockLevelOf, StockLevel } from '../domain/stock';
import { BalanceRepository } from '../infrastructure/balance.repository';
import { InventoryTransactionRepository } from '../infrastructure/inventory-transaction.repository';
import { BalanceExtensionRegistry } from './balance-extension-registry';
import { ReorderPointRegistry } from './reorder-point-registry';
import { BalanceResource, toBalanceResource } from './balance.presenter';

export interface BalanceFilters {
  product_id?: string;
  location_id?: string;
  below_reorder_point?: boolean;
}

export interface PlanningChanges {
  reorder_point?: number | null;
  reorder_quantity?: number | null;
  safety_stock?: number | null;
}

/** Stock balances: reads, and the planning fields (reorder point, reorder quantity, safety stock). */
@Injectable()
export class BalancesService implements OnModuleInit {
  constructor(
    private readonly resources: ResourceRegistry,
    private readonly tx: TransactionHost,
    private readonly balances: BalanceRepository,
    private readonly transactions: InventoryTransactionRepository,
    private readonly events: EventPublisher,
    private readonly extensions: BalanceExtensionRegistry,
    private readonly reorderPoints: ReorderPointRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'inventory_balance',
      fields: {},
      // The retrieve's representation (extensions included), so If-Match compares like with like.
      load: async (ids) => {
        const rows = await this.balances.findByIds(ids);
        const resources = [];
        for (const r of rows) resources.push(await this.extensions.extend(toBalanceResource(r)));
        return new Map(resources.map((r) => [r.id, r]));
      },
    });
  }

  async list(query: ListQueryDto & BalanceFilters, url: string): Promise<ListPage<BalanceResource>> {
    const page = await this.balances.list(query, url);
    return listEnvelope(await this.extensions.extendPage(page.rows.map(toBalanceResource)), page, url);
  }

  /** One balance, with the fields registered extensions add (replenishment's demand figures). */
  async retrieve(id: string): Promise<BalanceResource> {
    return this.extensions.extend(toBalanceResource(await this.balances.getById(id)));
  }

  /** Sets planning fields; a new reorder point that moves the balance across it emits the crossing's event. */
  async update(id: string, changes: PlanningChanges): Promise<BalanceResource> {
    return this.tx.run(async () => {
      const balance = await this.balances.getForUpdate(id);
      if (changes.reorder_point !== undefined) balance.reorderPoint = changes.reorder_point;
      if (changes.reorder_quantity !== undefined) balance.reorderQuantity = changes.reorder_quantity;
      if (changes.safety_stock !== undefined) balance.safetyStock = changes.safety_stock;
      const before = balance.stockLevel as StockLevel;
      balance.stockLevel = stockLevelOf(balance.onHand, await this.reorderPoints.effective(balance));
      balance.updatedAt = new Date();
      await this.balances.writeMoved(balance);
      const resource = toBalanceResource(balance);
      for (const type of crossingEvents(before, balance.stockLevel as StockLevel))
        await this.events.publish(type, resource);
      return resource;
    });
  }

  /** Balances whose on_hand or value differ from the sum of their ledger rows (empty when consistent). */
  mismatches() {
    return this.transactions.mismatchedBalances();
  }
}
