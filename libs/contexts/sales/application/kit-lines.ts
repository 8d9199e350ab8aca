import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import type { OrderLineRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';

/** One component of a kit, as the context that keeps bills of materials describes it. */
export interface KitComponentLine {
  productId: string;
  description: string;
  quantityPerKit: number;
}

/**
 * Port owned by sales, implemented by the context that keeps bills of materials
 * (replenishment) and registered at start-up: the components of kit products.
 */
export interface KitComponentsSource {
  componentsOf(productIds: readonly string[]): Promise<Map<string, KitComponentLine[]>>;
}

/** An order line not yet written (an id only once expand() gave it one). */
export type LineDraft = Omit<
  OrderLineRecord,
  'id' | 'entityId' | 'livemode' | 'createdAt' | 'updatedAt' | 'version'
> & {
  id?: string;
};

/**
 * Kit lines of an order carry their components as child lines (parent_line_id), so each
 * component's committed demand is on its own line. Child lines are priced at 0: the kit line
 * carries the price, so totals do not change.
 */
@Injectable()
export class KitLines {
  private source: KitComponentsSource | null = null;

  constructor(private readonly lines: OrderLineRepository) {}

  register(source: KitComponentsSource): void {
    this.source = source;
  }

  /** The drafts with an id each, every kit line followed by its component lines, renumbered from `firstPosition`. */
  async expand(drafts: LineDraft[], firstPosition: number): Promise<LineDraft[]> {
    return withComponents(drafts, firstPosition, await this.componentsOf(drafts));
  }

  /** expand() of the lines of several orders (each renumbered from 0), with one read of the components. */
  async expandEach(draftLists: readonly LineDraft[][]): Promise<LineDraft[][]> {
    const components = await this.componentsOf(draftLists.flat());
    return draftLists.map((drafts) => withComponents(drafts, 0, components));
  }

  private async componentsOf(drafts: readonly LineDraft[]): Promise<Map<string, KitComponentLine[]>> {
    const productIds = [...new Set(drafts.flatMap((d) => (d.productId ? [d.productId] : [])))];
    return this.source && productIds.length > 0 ? this.source.componentsOf(productIds) : new Map();
  }

  /** Replaces a line's component lines after its product or quantity changed (none unless it is a kit with components). */
  async resync(line: OrderLineRecord): Promise<void> {
    await this.lines.deleteChildrenOf(line.id);
    const children = (await this.expand([{ ...line }], line.position)).slice(1);
    await this.lines.insertMany(children.map((c) => ({ ...c, position: line.position })));
  }

  /** Copies of an order's lines for another order (conversion), with new ids and kit links kept. */
  copiesFor(lines: readonly OrderLineRecord[], orderId: string): LineDraft[] {
    const ids = new Map(lines.map((l) => [l.id, newId()]));
    return lines.map((l) => {
      const { id, entityId: _e, livemode: _m, createdAt: _c, updatedAt: _u, version: _v, ...rest } = l;
      return {
        ...rest,
        id: ids.get(id),
        orderId,
        parentLineId: l.parentLineId ? (ids.get(l.parentLineId) ?? null) : null,
      };
    });
  }
}

/** The drafts with an id each, every kit line followed by its component lines, renumbered from `firstPosition`. */
function withComponents(
  drafts: readonly LineDraft[],
  firstPosition: number,
  components: Map<string, KitComponentLine[]>,
): LineDraft[] {
  const result: LineDraft[] = [];
  for (const draft of drafts) {
    const parent = { ...draft, id: draft.id ?? newId(), parentLineId: draft.parentLineId ?? null };
    result.push(parent);
    for (const c of (draft.productId ? components.get(draft.productId) : undefined) ?? []) {
      result.push(childLine(parent, c));
    }
  }
  return result.map((line, i) => ({ ...line, position: firstPosition + i }));
}

function childLine(parent: LineDraft & { id: string }, c: KitComponentLine): LineDraft {
  const zero = money(0);
  return {
    orderId: parent.orderId,
    position: parent.position,
    productId: c.productId,
    description: c.description,
    quantity: money(parent.quantity).times(c.quantityPerKit),
    listPrice: null,
    unitPrice: zero,
    pricingPolicyId: null,
    discountPercent: zero,
    discountAmount: zero,
    taxRate: zero,
    subtotal: zero,
    discountTotal: zero,
    taxTotal: zero,
    total: zero,
    parentLineId: parent.id,
  };
}
