import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'kit_components' })
export class KitComponentRecord extends TenantRecord {
  @Column('uuid', { name: 'kit_product_id' }) kitProductId: string;
  @Column('uuid', { name: 'component_product_id' }) componentProductId: string;
  @Column('integer') quantity: number;
}
