import { Injectable } from '@nestjs/common';
import { AccountingSettingsService } from '#contexts/accounting';
import { OrderLineFactsService } from '#contexts/sales';
import { combinedWrite, TransactionHost } from '#platform/persistence/transaction-host';
import { dayInZone } from '#platform/tenancy/business-day';
import { DemandMovement, demandKind, LineRole, SALES_DOCUMENT_TYPES } from '../domain/demand';
import { BuildRepository } from '../infrastructure/build.repository';
import { DemandAggregateRepository, DemandDelta } from '../infrastructure/demand-aggregate.repository';
import { LineShipmentRepository } from '../infrastructure/line-shipment.repository';
import { DemandAverageRefresher } from './demand-average-refresher.service';
import { LedgerMovement } from './ledger-movement';

/**
 * The stock-movement observer: inside the transaction that writes ledger rows it classifies
 * each row with the demand rules and adds the qualifying units to the per-day aggregates (and
 * the shipped units per sales line), so run rates and the reorder report never scan the ledger.
 * The products' stored demand averages follow after the commit (DemandAverageRefresher).
 */
@Injectable()
export class DemandRecorderService {
  constructor(
    private readonly aggregates: DemandAggregateRepository,
    private readonly shipments: LineShipmentRepository,
    private readonly builds: BuildRepository,
    private readonly orderLines: OrderLineFactsService,
    private readonly settings: AccountingSettingsService,
    private readonly refresher: DemandAverageRefresher,
    private readonly tx: TransactionHost,
  ) {}

  async record(movements: readonly LedgerMovement[]): Promise<void> {
    const relevant = movements.filter(
      (m) => m.quantity < 0 && (m.type === 'fulfillment' || m.type === 'build_consumption'),
    );
    if (relevant.length === 0) return;
    // One connection per transaction: the reads run one after the other.
    const lines = await this.orderLines.factsOf(
      relevant.flatMap((m) => (m.orderItemId ? [m.orderItemId] : [])),
    );
    const builds = await this.builds.findByIds(
      relevant.flatMap((m) =>
        m.type === 'build_consumption' && m.sourceType === 'build' && m.sourceId ? [m.sourceId] : [],
      ),
    );
    const timezone = await this.settings.timezone();
    const buildStatus = new Map(builds.map((b) => [b.id, b.status]));
    const assembled = await this.builds.assembledLines(
      [...lines.values()].filter((l) => l.hasChildren).map((l) => l.lineId),
    );
    const deltas: DemandDelta[] = [];
    const shipped: { lineId: string; productId: string; units: number }[] = [];
    for (const m of relevant) {
      const line = m.orderItemId ? lines.get(m.orderItemId) : undefined;
      const role: LineRole | null = line
        ? line.hasChildren
          ? 'kit_parent'
          : line.parentLineId
            ? 'kit_component'
            : 'line'
        : null;
      const movement: DemandMovement = {
        productId: m.productId,
        locationId: m.locationId,
        type: m.type,
        quantity: m.quantity,
        day: dayInZone(m.occurredAt, timezone),
        documentType: line?.documentType ?? null,
        lineRole: role,
        assembledToOrder: line ? assembled.has(line.lineId) : false,
        // Ledger rows of a build exist only once it is posted; a build row says so explicitly.
        buildStatus:
          m.sourceType === 'build' && m.sourceId ? (buildStatus.get(m.sourceId) ?? 'posted') : 'posted',
      };
      const kind = demandKind(movement);
      if (!kind) continue;
      deltas.push({
        productId: m.productId,
        locationId: m.locationId,
        day: movement.day,
        kind,
        units: -m.quantity,
      });
      if (line && SALES_DOCUMENT_TYPES.includes(line.documentType)) {
        shipped.push({ lineId: line.lineId, productId: m.productId, units: -m.quantity });
      }
    }
    // The day's aggregates, the lines' shipped units and the marks of the products whose stored
    // demand average is now behind (refreshed after commit): one statement, sent at once.
    const productIds = [...new Set(deltas.map((d) => d.productId))].sort();
    const write = combinedWrite([
      this.aggregates.addStatement(deltas),
      this.shipments.addStatement(shipped),
      this.refresher.markStatement(productIds),
    ]);
    if (write) await this.tx.inOrder([write]);
  }
}
