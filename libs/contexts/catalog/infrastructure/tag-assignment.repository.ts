import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
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
    const { entityId, livemode } = this.scope();
    // Plain SQL with one array parameter: the same rows in the same order as the query builder's
    // `IN (...)`, without building and hydrating through TypeORM on every list page.
    const rows = (await this.tx.manager.query(
      `SELECT resource_id AS "resourceId", tag_id AS "tagId" FROM tag_assignments
        WHERE entity_id = $1 AND livemode = $2 AND resource_type = $3 AND resource_id = ANY($4::uuid[])
        ORDER BY created_at ASC, tag_id ASC`,
      [entityId, livemode, resourceType, [...new Set(resourceIds)]],
    )) as { resourceId: string; tagId: string }[];
    for (const row of rows) byResource.get(row.resourceId)?.push(row.tagId);
    return byResource;
  }
}
