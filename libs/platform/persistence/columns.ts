import { Column, CreateDateColumn, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';
import { moneyTransformer } from './money';

/** Columns of every tenant table: UUIDv7 id, owning entity, mode, timestamps and a row version for ETags. */
export abstract class TenantRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'entity_id' }) entityId: string;
  @Column('boolean') livemode: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @VersionColumn({ default: 1 }) version: number;
}

/** A numeric(19,4) money column mapped to a Decimal. */
export const MoneyColumn = (options: { name?: string; nullable?: boolean } = {}) =>
  Column('numeric', { precision: 19, scale: 4, transformer: moneyTransformer, ...options });
