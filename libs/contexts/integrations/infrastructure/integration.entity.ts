import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';
import type { ConnectorType, IntegrationSettings } from '../domain/connector-types';

export type IntegrationStatus = 'connected' | 'disconnected';

@Entity({ name: 'integrations' })
export class IntegrationRecord extends TenantRecord {
  @Column('text') type: ConnectorType;
  @Column('text') name: string;
  @Column('text') status: IntegrationStatus;
  /** The credentials object as JSON, sealed with SECRETS_KEY; null once disconnected. */
  @Column('text', { nullable: true }) credentials: string | null;
  @Column('text', { name: 'credentials_hint', nullable: true }) credentialsHint: string | null;
  @Column('jsonb') settings: IntegrationSettings;
  @Column('timestamptz', { name: 'last_import_at', nullable: true }) lastImportAt: Date | null;
  @Column('timestamptz', { name: 'disconnected_at', nullable: true }) disconnectedAt: Date | null;
}

export type RunKind = 'listing_sync' | 'order_import';
export type RunTrigger = 'manual' | 'schedule' | 'listing';
export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface RunError {
  external_id: string | null;
  code: string;
  message: string;
}

@Entity({ name: 'integration_runs' })
export class IntegrationRunRecord extends TenantRecord {
  @Column('uuid', { name: 'integration_id' }) integrationId: string;
  @Column('text') kind: RunKind;
  @Column('text') trigger: RunTrigger;
  @Column('text') status: RunStatus;
  @Column('integer', { name: 'orders_imported' }) ordersImported: number;
  @Column('integer', { name: 'orders_skipped' }) ordersSkipped: number;
  @Column('integer', { name: 'payouts_imported' }) payoutsImported: number;
  @Column('integer', { name: 'payouts_skipped' }) payoutsSkipped: number;
  @Column('integer', { name: 'listings_synced' }) listingsSynced: number;
  @Column('jsonb') errors: RunError[];
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt: Date | null;
}

export type ImportKind = 'order' | 'payout';

@Entity({ name: 'integration_imports' })
export class IntegrationImportRecord extends TenantRecord {
  @Column('uuid', { name: 'integration_id' }) integrationId: string;
  @Column('text') kind: ImportKind;
  @Column('text', { name: 'external_id' }) externalId: string;
  @Column('uuid', { name: 'resource_id', nullable: true }) resourceId: string | null;
  @Column('uuid', { name: 'journal_entry_id', nullable: true }) journalEntryId: string | null;
  @Column('uuid', { name: 'run_id', nullable: true }) runId: string | null;
}
