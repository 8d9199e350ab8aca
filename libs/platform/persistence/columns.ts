import { Column, CreateDateColumn, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';
import { moneyTransformer } from './money-transformer';

/** The key columns of a row owned by one entity and mode: UUIDv7 id, owning entity, mode. */
export abstract class TenantRow {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'entity_id' }) entityId: string;
  @Column('boolean') livemode: boolean;
}

/** Columns of every tenant table: TenantRow's, timestamps and a row version for ETags. */
export abstract class TenantRecord extends TenantRow {
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @VersionColumn({ default: 1 }) version: number;
}

/** A numeric(19,4) money column mapped to a Decimal. */
export const MoneyColumn = (options: { name?: string; nullable?: boolean } = {}) =>
  Column('numeric', { precision: 19, scale: 4, transformer: moneyTransformer, ...options });
