import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { TagAssignmentRecord } from './tag.entity';

/** Rows of tag_assignments, always scoped by the caller's entity and mode. */
@Injectable()
export class TagAssignmentRepository {
  constructor(private readonly tx: TransactionHost) {}

  private scope() {
    const { entityId, livemode } = RequestContext.caller();
    return { entityId, livemode };
  }

  /** Inserts the assignment; false when it already existed. */
  async insert(resourceType: string, resourceId: string, tagId: string): Promise<boolean> {
    const result = await this.tx.transactional
      .createQueryBuilder()
      .insert()
      .into(TagAssignmentRecord)
      .values({ tagId, resourceType, resourceId, ...this.scope() })
      .orIgnore()
      .returning(['tag_id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  /** Removes the assignment; false when there was none. */
  async remove(resourceType: string, resourceId: string, tagId: string): Promise<boolean> {
    const result = await this.tx.transactional
      .getRepository(TagAssignmentRecord)
      .delete({ tagId, resourceType, resourceId, ...this.scope() });
    return (result.affected ?? 0) > 0;
  }

  /** Tag ids of each resource, in the order they were attached. */
  async tagIdsOf(resourceType: string, resourceIds: readonly string[]): Promise<Map<string, string[]>> {
    const byResource = new Map<string, string[]>(resourceIds.map((id) => [id, []]));
    if (resourceIds.length === 0) return byResource;
    const rows = await this.tx.manager
      .getRepository(TagAssignmentRecord)
      .createQueryBuilder('a')
      .where('a.entity_id = :entityId AND a.livemode = :livemode', this.scope())
      .andWhere('a.resource_type = :resourceType AND a.resource_id IN (:...ids)', {
        resourceType,
        ids: [...new Set(resourceIds)],
      })
      .orderBy('a.created_at', 'ASC')
      .addOrderBy('a.tag_id', 'ASC')
      .getMany();
    for (const row of rows) byResource.get(row.resourceId)?.push(row.tagId);
    return byResource;
  }
}
