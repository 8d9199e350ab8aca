import { ImportErrorRecord, ImportRecord } from '../infrastructure/import.entity';

export interface ImportResource {
  id: string;
  object: 'import';
  resource: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  livemode: boolean;
  failure_reason: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export const toImportResource = (r: ImportRecord): ImportResource => ({
  id: r.id,
  object: 'import',
  resource: r.resource,
  status: r.status,
  total: r.total,
  processed: r.processed,
  succeeded: r.succeeded,
  failed: r.failed,
  livemode: r.livemode,
  failure_reason: r.failureReason,
  created_at: r.createdAt.toISOString(),
  started_at: r.startedAt?.toISOString() ?? null,
  completed_at: r.completedAt?.toISOString() ?? null,
});

export interface ImportErrorResource {
  id: string;
  object: 'import_error';
  import_id: string;
  row: number;
  external_id: string | null;
  error: Record<string, unknown>;
}

export const toImportErrorResource = (r: ImportErrorRecord): ImportErrorResource => ({
  id: r.id,
  object: 'import_error',
  import_id: r.importId,
  row: r.rowNumber,
  external_id: r.externalId,
  error: r.error,
});
