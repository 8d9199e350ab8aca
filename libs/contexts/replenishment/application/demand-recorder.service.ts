import { Injectable } from '@nestjs/common';
import { AccountingSettingsService } from '#contexts/accounting';
import { OrderLineFacts, OrderLineFactsService } from '#contexts/sales';
import { dayInZone } from '#platform/tenancy/business-day';
import { DemandMovement, demandKind, LineRole, SALES_DOCUMENT_TYPES } from '../domain/demand';
import { BuildRepository } from '../infrastructure/build.repository';
import { DemandDelta } from '../infrastructure/demand-aggregate.repository';
import { DemandWriter } from '../infrastructure/demand.writer';
import { DemandRefreshRequests } from './demand-refresh-requests.port';
import { LedgerMovement } from './ledger-movement';

/**
 * The stock-movement observer: inside the transaction that writes ledger rows it classifies
 * each row with the demand rules and adds the qualifying units to the per-day aggregates (and
 * the shipped units per sales line), so run rates and the reorder report never scan the ledger.
 * The products' stored demand averages follow once it committed (DemandRefreshRequests).
 */
@Injectable()
export class DemandRecorderService {
  constructor(
    private readonly demand: DemandWriter,
    private readonly builds: BuildRepository,
    private readonly orderLines: OrderLineFactsService,
    private readonly settings: AccountingSettingsService,
    private readonly refreshes: DemandRefreshRequests,
  ) {}

  /**
   * The observer's first step, given the movements asked for: reads the facts of their order
   * lines and builds (in one round trip with the statement locking the balances, when called in
   * its turn); answers the step that records the written rows, whose one write then leaves with
   * the ledger's.
   */
  async prepare(
    asked: readonly DemandSubject[],
  ): Promise<(movements: readonly LedgerMovement[]) => Promise<void>> {
    const facts = await this.factsOf(asked.filter(counts));
    return async (movements) => {
      const relevant = movements.filter(counts);
      if (relevant.length === 0) return;
      // Rows the plan did not name (none, when the plan is what was written): read now.
      const missing = await this.factsOf(
        relevant.filter(
          (m) =>
            (m.orderItemId && !facts.asked.has(m.orderItemId)) ||
            (buildOf(m) !== null && !facts.asked.has(buildOf(m)!)),
        ),
      );
      await this.write(relevant, merged(facts, missing));
    };
  }

  /** The order lines' and builds' facts the demand rules need for `movements`. */
  private async factsOf(movements: readonly DemandSubject[]): Promise<MovementFacts> {
    if (movements.length === 0)
      return {
        asked: new Set(),
        lines: new Map(),
        buildStatus: new Map(),
        assembled: new Set(),
        timezone: null,
      };
    const lineIds = movements.flatMap((m) => (m.orderItemId ? [m.orderItemId] : []));
    const buildIds = movements.flatMap((m) => buildOf(m) ?? []);
    // One connection per transaction: the reads run one after the other.
    const lines = await this.orderLines.factsOf(lineIds);
    const builds = await this.builds.findByIds(buildIds);
    const timezone = await this.settings.timezone();
    const assembled = await this.builds.assembledLines(
      [...lines.values()].filter((l) => l.hasChildren).map((l) => l.lineId),
    );
    return {
      asked: new Set([...lineIds, ...buildIds]),
      lines,
      buildStatus: new Map(builds.map((b) => [b.id, b.status])),
      assembled,
      timezone,
    };
  }

  /** Adds the qualifying units of `relevant` to the aggregates and marks their products. */
  private async write(relevant: readonly LedgerMovement[], facts: MovementFacts): Promise<void> {
    const { lines, buildStatus, assembled } = facts;
    const timezone = facts.timezone ?? (await this.settings.timezone());
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
    // The products whose stored demand average is now behind are refreshed.
    const productIds = [...new Set(deltas.map((d) => d.productId))].sort();
    await this.demand.record(deltas, shipped, productIds);
    this.refreshes.request(productIds);
  }
}

/** What the first step sees of a movement asked for (inventory's AskedMovement satisfies it). */
type DemandSubject = Pick<LedgerMovement, 'productId' | 'type' | 'quantity' | 'sourceType' | 'sourceId'> & {
  orderItemId?: string | null;
};

interface MovementFacts {
  /** The order lines and builds whose facts were read (found or not). */
  asked: Set<string>;
  lines: Map<string, OrderLineFacts>;
  buildStatus: Map<string, string>;
  assembled: Set<string>;
  /** Null when nothing was read. */
  timezone: string | null;
}

/** A decrement the demand rules may count: stock shipped or drawn into a build. */
function counts(m: DemandSubject): boolean {
  return m.quantity < 0 && (m.type === 'fulfillment' || m.type === 'build_consumption');
}

/** The build a movement draws for, if any. */
function buildOf(m: DemandSubject): string | null {
  return m.type === 'build_consumption' && m.sourceType === 'build' && m.sourceId ? m.sourceId : null;
}

function merged(a: MovementFacts, b: MovementFacts): MovementFacts {
  return {
    asked: new Set([...a.asked, ...b.asked]),
    lines: new Map([...a.lines, ...b.lines]),
    buildStatus: new Map([...a.buildStatus, ...b.buildStatus]),
    assembled: new Set([...a.assembled, ...b.assembled]),
    timezone: a.timezone ?? b.timezone,
  };
}
