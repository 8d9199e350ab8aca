import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'product_categories' })
export class ProductCategoryRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('uuid', { name: 'parent_id', nullable: true }) parentId: string | null;
  @Column('jsonb') metadata: Record<string, string>;
}
