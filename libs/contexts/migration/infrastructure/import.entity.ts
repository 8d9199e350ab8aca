import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';
import type { ImportStatus } from '../domain/import-source';

/** A bulk import: its resource, progress counters and the checkpoint of the next row to process (its rows: import_rows). */
@Entity({ name: 'imports' })
export class ImportRecord extends TenantRecord {
  @Column('text') resource: string;
  @Column('text') status: ImportStatus;
  @Column('text', { name: 'source_format' }) sourceFormat: 'json' | 'ndjson';
  @Column('integer') total: number;
  @Column('integer') processed: number;
  @Column('integer') succeeded: number;
  @Column('integer') failed: number;
  /** Index (0-based, among the source's rows) of the first row not yet committed. */
  @Column('integer', { name: 'next_row' }) nextRow: number;
  @Column('uuid', { name: 'api_key_id' }) apiKeyId: string;
  @Column('text', { name: 'failure_reason', nullable: true }) failureReason: string | null;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt: Date | null;
}

/** A row of an import that did not land, with the error envelope it would have had over REST. */
@Entity({ name: 'import_errors' })
export class ImportErrorRecord extends TenantRecord {
  @Column('uuid', { name: 'import_id' }) importId: string;
  @Column('integer', { name: 'row_number' }) rowNumber: number;
  @Column('text', { name: 'external_id', nullable: true }) externalId: string | null;
  @Column('jsonb') error: Record<string, unknown>;
}
