import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';
import type { DimensionUnit, ProductStatus, ProductType, WeightUnit } from '../domain/product';

@Entity({ name: 'products' })
export class ProductRecord extends TenantRecord {
  @Column('text') sku: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') type: ProductType;
  @Column('text') status: ProductStatus;
  @Column('text', { name: 'unit_of_measure' }) unitOfMeasure: string;
  @MoneyColumn({ name: 'list_price' }) listPrice: Decimal;
  @Column('char', { length: 3 }) currency: string;
  @MoneyColumn({ name: 'cost_price', nullable: true }) costPrice: Decimal | null;
  @MoneyColumn({ nullable: true }) weight: Decimal | null;
  @Column('text', { name: 'weight_unit', nullable: true }) weightUnit: WeightUnit | null;
  @MoneyColumn({ nullable: true }) length: Decimal | null;
  @MoneyColumn({ nullable: true }) width: Decimal | null;
  @MoneyColumn({ nullable: true }) height: Decimal | null;
  @Column('text', { name: 'dimension_unit', nullable: true }) dimensionUnit: DimensionUnit | null;
  @Column('boolean', { name: 'freight_insurance' }) freightInsurance: boolean;
  @Column('boolean', { name: 'serial_tracked' }) serialTracked: boolean;
  @MoneyColumn({ name: 'demand_avg_per_day' }) demandAvgPerDay: Decimal;
  @Column('uuid', { name: 'category_id', nullable: true }) categoryId: string | null;
  @Column('jsonb') metadata: Record<string, string>;
  @Column('timestamptz', { name: 'archived_at', nullable: true }) archivedAt: Date | null;
}

@Entity({ name: 'product_variants' })
export class ProductVariantRecord extends TenantRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('text') sku: string;
  @Column('text') name: string;
  @Column('jsonb') options: Record<string, string>;
  @MoneyColumn({ name: 'list_price', nullable: true }) listPrice: Decimal | null;
  @MoneyColumn({ name: 'cost_price', nullable: true }) costPrice: Decimal | null;
  @MoneyColumn({ nullable: true }) weight: Decimal | null;
  @Column('text', { name: 'weight_unit', nullable: true }) weightUnit: WeightUnit | null;
  @Column('jsonb') metadata: Record<string, string>;
}
