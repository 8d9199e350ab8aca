import { Injectable } from '@nestjs/common';
import { OrderLineFactRow, OrderLineFactsRepository } from '../infrastructure/order-line-facts.repository';

/** One order line as planning (replenishment) sees it. */
export interface OrderLineFacts {
  lineId: string;
  orderId: string;
  documentType: string;
  orderStatus: string;
  productId: string | null;
  /** Whole units ordered. */
  quantity: number;
  parentLineId: string | null;
  /** A kit line assembled to order: its components are child lines. */
  hasChildren: boolean;
}

const toFacts = (r: OrderLineFactRow): OrderLineFacts => ({
  lineId: r.line_id,
  orderId: r.order_id,
  documentType: r.document_type,
  orderStatus: r.order_status,
  productId: r.product_id,
  quantity: Math.trunc(Number(r.quantity)),
  parentLineId: r.parent_line_id,
  hasChildren: r.has_children,
});

/** Read-only order-line facts for other contexts: which document a line is on and its kit shape. */
@Injectable()
export class OrderLineFactsService {
  constructor(private readonly lines: OrderLineFactsRepository) {}

  /** Lines of the caller's entity and mode by id; unknown ids are absent. */
  async factsOf(lineIds: readonly string[]): Promise<Map<string, OrderLineFacts>> {
    return new Map((await this.lines.ofLines(lineIds)).map((r) => [r.line_id, toFacts(r)]));
  }

  /**
   * Committed customer demand: lines of confirmed sales orders for the products (quotes,
   * invoices, returns and purchase orders excluded), with a kit's component lines in place of
   * the kit line that carries them.
   */
  async committedLines(productIds: readonly string[]): Promise<OrderLineFacts[]> {
    return (await this.lines.committedLines(productIds)).map(toFacts);
  }
}
