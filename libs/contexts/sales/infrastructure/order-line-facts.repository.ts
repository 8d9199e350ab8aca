import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';

export interface OrderLineFactRow {
  line_id: string;
  order_id: string;
  document_type: string;
  order_status: string;
  product_id: string | null;
  quantity: string;
  parent_line_id: string | null;
  has_children: boolean;
}

/** Facts about order lines that planning needs: document, status, kit parent/child shape. */
@Injectable()
export class OrderLineFactsRepository {
  constructor(private readonly tx: TransactionHost) {}

  async ofLines(lineIds: readonly string[]): Promise<OrderLineFactRow[]> {
    if (lineIds.length === 0) return [];
    const { entityId, livemode } = RequestContext.caller();
    return this.tx.manager.query(
      `SELECT l.id AS line_id, l.order_id, o.document_type, o.order_status, l.product_id, l.quantity::text AS quantity,
              l.parent_line_id,
              EXISTS (SELECT 1 FROM order_lines c
                       WHERE c.entity_id = l.entity_id AND c.livemode = l.livemode AND c.parent_line_id = l.id) AS has_children
         FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.entity_id = $1 AND l.livemode = $2 AND l.id = ANY($3::uuid[])`,
      [entityId, livemode, [...new Set(lineIds)]],
    );
  }

  /** Lines of confirmed sales orders for the products, leaving out kit lines that carry component lines. */
  async committedLines(productIds: readonly string[]): Promise<OrderLineFactRow[]> {
    if (productIds.length === 0) return [];
    const { entityId, livemode } = RequestContext.caller();
    return this.tx.manager.query(
      `SELECT l.id AS line_id, l.order_id, o.document_type, o.order_status, l.product_id, l.quantity::text AS quantity,
              l.parent_line_id, false AS has_children
         FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.entity_id = $1 AND l.livemode = $2 AND l.product_id = ANY($3::uuid[])
          AND o.document_type = 'sales_order' AND o.order_status = 'confirmed'
          AND NOT EXISTS (SELECT 1 FROM order_lines c
                           WHERE c.entity_id = l.entity_id AND c.livemode = l.livemode AND c.parent_line_id = l.id)`,
      [entityId, livemode, [...new Set(productIds)]],
    );
  }
}
