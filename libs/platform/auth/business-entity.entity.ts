import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A tenant: a business whose data the API keys of its code reach. */
@Entity({ name: 'entities' })
export class BusinessEntityRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { unique: true }) code: string;
  @Column('text') name: string;
  @Column('text', { default: 'UTC' }) timezone: string;
  @Column('text', { name: 'base_currency', default: 'USD' }) baseCurrency: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
