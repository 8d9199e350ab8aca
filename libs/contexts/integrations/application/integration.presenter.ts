import { resourceTimestamps } from '#platform/http/resource-fields';
import type { ConnectorType, IntegrationSettings } from '../domain/connector-types';
import type {
  IntegrationRecord,
  IntegrationRunRecord,
  IntegrationStatus,
  RunError,
  RunKind,
  RunStatus,
  RunTrigger,
} from '../infrastructure/integration.entity';

/** An integration as answered: the credentials never, only whether they are set and a masked hint. */
export interface IntegrationResource {
  id: string;
  object: 'integration';
  type: ConnectorType;
  name: string;
  status: IntegrationStatus;
  settings: IntegrationSettings;
  credentials_set: boolean;
  credentials_hint: string | null;
  last_import_at: string | null;
  disconnected_at: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toIntegrationResource = (r: IntegrationRecord): IntegrationResource => ({
  id: r.id,
  object: 'integration',
  type: r.type,
  name: r.name,
  status: r.status,
  settings: r.settings,
  credentials_set: r.credentials !== null,
  credentials_hint: r.credentials === null ? null : r.credentialsHint,
  last_import_at: r.lastImportAt ? r.lastImportAt.toISOString() : null,
  disconnected_at: r.disconnectedAt ? r.disconnectedAt.toISOString() : null,
  ...resourceTimestamps(r),
});

export interface IntegrationRunResource {
  id: string;
  object: 'integration_run';
  integration_id: string;
  kind: RunKind;
  trigger: RunTrigger;
  status: RunStatus;
  counts: {
    orders_imported: number;
    orders_skipped: number;
    payouts_imported: number;
    payouts_skipped: number;
    listings_synced: number;
  };
  errors: RunError[];
  finished_at: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toRunResource = (r: IntegrationRunRecord): IntegrationRunResource => ({
  id: r.id,
  object: 'integration_run',
  integration_id: r.integrationId,
  kind: r.kind,
  trigger: r.trigger,
  status: r.status,
  counts: {
    orders_imported: r.ordersImported,
    orders_skipped: r.ordersSkipped,
    payouts_imported: r.payoutsImported,
    payouts_skipped: r.payoutsSkipped,
    listings_synced: r.listingsSynced,
  },
  errors: r.errors,
  finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
  ...resourceTimestamps(r),
});
