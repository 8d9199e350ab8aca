import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';
import type { BuildStatus } from '../domain/build';

/** A component line of a build as posted: what was drawn and at what cost. */
export interface BuildComponentLine {
  product_id: string;
  quantity_per_kit: number;
  quantity: number;
  unit_cost: string | null;
  value: string | null;
}

@Entity({ name: 'builds' })
export class BuildRecord extends TenantRecord {
  @Column('uuid', { name: 'kit_product_id' }) kitProductId: string;
  @Column('uuid', { name: 'location_id' }) locationId: string;
  @Column('integer') quantity: number;
  /** The sales order line the kit is assembled for (assemble to order), if any. */
  @Column('uuid', { name: 'order_line_id', nullable: true }) orderLineId: string | null;
  @Column('text') status: BuildStatus;
  @Column('jsonb') components: BuildComponentLine[];
  @MoneyColumn({ name: 'unit_cost', nullable: true }) unitCost: Decimal | null;
  @MoneyColumn({ name: 'total_cost', nullable: true }) totalCost: Decimal | null;
  @Column('uuid', { name: 'journal_entry_id', nullable: true }) journalEntryId: string | null;
  @Column('text', { nullable: true }) notes: string | null;
  @Column('timestamptz', { name: 'posted_at', nullable: true }) postedAt: Date | null;
  @Column('timestamptz', { name: 'voided_at', nullable: true }) voidedAt: Date | null;
}
