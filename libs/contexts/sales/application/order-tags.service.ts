import { Injectable } from '@nestjs/common';
import { TagRef, TagsService } from '#contexts/catalog';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SalesError } from '../domain/sales-error';
import { OrderRepository } from '../infrastructure/order.repository';
import { OrderChanges } from './order-changes.service';
import { OrderResource } from './order.presenter';

/** The tags of an order document (catalog's tags, attached and detached here). */
@Injectable()
export class OrderTags {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly tags: TagsService,
    private readonly events: EventPublisher,
    private readonly changes: OrderChanges,
  ) {}

  async addTag(orderId: string, { tag_id: tagId }: TagRef): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const before = (await this.tags.tagIdsOf('order', [record.id])).get(record.id) ?? [];
      const added = await this.tags.attach('order', record.id, tagId);
      const resource = await this.changes.presentOne(record);
      if (added) await this.changes.publish('order.updated', resource, { tag_ids: before });
      return resource;
    });
  }

  /** Detaches every tag of an order being deleted (no event: the order's deletion is the event). */
  async detachAll(orderId: string): Promise<void> {
    const tagIds = (await this.tags.tagIdsOf('order', [orderId])).get(orderId) ?? [];
    for (const tagId of tagIds) await this.tags.detach('order', orderId, tagId);
  }

  async removeTag(orderId: string, tagId: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const before = (await this.tags.tagIdsOf('order', [record.id])).get(record.id) ?? [];
      if (!(await this.tags.detach('order', record.id, tagId))) {
        throw new SalesError('not_found', {
          hint: `Tag '${tagId}' is not attached to order '${record.id}'.`,
        });
      }
      const resource = await this.changes.presentOne(record);
      await this.changes.publish('order.updated', resource, { tag_ids: before });
      return resource;
    });
  }
}
