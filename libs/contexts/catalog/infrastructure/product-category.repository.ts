import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ProductCategoryRecord } from './product-category.entity';

@Injectable()
export class ProductCategoryRepository extends TenantRepository.of(
  ProductCategoryRecord,
  'product category',
) {
  /** A page of categories, filtered by parent. */
  list(query: ListQueryDto & { parent_id?: string }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['parent_id'] }));
  }

  /** The chain of ancestors of a category, parent first, up to `limit` levels. */
  async ancestorsOf(id: string, limit: number): Promise<string[]> {
    const { entityId, livemode } = this.scope();
    const rows: { id: string }[] = await this.tx.manager.query(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM product_categories WHERE id = $1 AND entity_id = $2 AND livemode = $3
         UNION ALL
         SELECT c.id, c.parent_id, chain.depth + 1 FROM product_categories c
         JOIN chain ON c.id = chain.parent_id
         WHERE c.entity_id = $2 AND c.livemode = $3 AND chain.depth < $4
       )
       SELECT id FROM chain WHERE depth > 0 ORDER BY depth`,
      [id, entityId, livemode, limit],
    );
    return rows.map((r) => r.id);
  }

  async countChildren(id: string): Promise<number> {
    return this.scopedQuery('c').andWhere('c.parent_id = :id', { id }).getCount();
  }
}
