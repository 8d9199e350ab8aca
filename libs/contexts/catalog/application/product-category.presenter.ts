import { ProductCategoryRecord } from '../infrastructure/product-category.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export interface ProductCategoryResource {
  id: string;
  object: 'product_category';
  name: string;
  description: string | null;
  parent_id: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toCategoryResource = (c: ProductCategoryRecord): ProductCategoryResource => ({
  id: c.id,
  object: 'product_category',
  name: c.name,
  description: c.description,
  parent_id: c.parentId,
  metadata: c.metadata,
  ...resourceTimestamps(c),
});
