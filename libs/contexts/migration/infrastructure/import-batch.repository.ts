import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';

/** The import a batch belongs to: its id, its entity and mode, and the resource it imports. */
export interface BatchImport {
  id: string;
  entityId: string;
  livemode: boolean;
  resource: string;
}

/** A row of the source that did not land, with the error envelope it would have had over REST. */
export interface ImportRowError {
  row: number;
  externalId: string | null;
  error: Record<string, unknown>;
}

/**
 * The first statement of every batch transaction. A batch's statements look up a chunk's worth of
 * keys at once (`= ANY($n)` over 1,000 external ids or SKUs) in tables the import itself fills.
 * Statements that run often are prepared once per connection, and after five runs PostgreSQL may
 * keep a generic plan made without the array and with the statistics of the moment, typically an
 * empty table on a first import: a sequential scan testing every row against every element of the
 * array, whose cost grows with the rows imported so far (a 50,000-row import slowed down about
 * threefold). Planned for their parameters, the same statements probe the unique indexes or hash
 * the array. SET LOCAL: the setting ends with the batch's transaction.
 */
const CUSTOM_PLANS = `SET LOCAL plan_cache_mode = force_custom_plan`;

/**
 * The statements of one batch of an import, all in the batch's transaction: the checkpoint lock
 * with the resources already mapped to the batch's external ids, the row savepoints of a batch
 * redone row by row, and the batch's mappings, row errors and counters.
 */
@Injectable()
export class ImportBatchRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * Locks the import row and reads its checkpoint (undefined when the import is gone) with the
   * resources already mapped to `externalIds`, after making the batch's transaction plan its
   * statements for their parameters (see CUSTOM_PLANS).
   */
  async lockCheckpointAndMappings(
    record: BatchImport,
    externalIds: string[],
  ): Promise<{ checkpoint: number | undefined; mapped: Map<string, string> }> {
    const manager = this.tx.transactional;
    await manager.query(CUSTOM_PLANS);
    const rows: { next_row: number; external_id: string | null; resource_id: string | null }[] =
      await manager.query(
        `SELECT i.next_row, m.external_id, m.resource_id
       FROM (SELECT next_row FROM imports WHERE id = $1 FOR UPDATE) i
       LEFT JOIN import_external_ids m
         ON m.entity_id = $2 AND m.livemode = $3 AND m.resource = $4 AND m.external_id = ANY($5::text[])`,
        [record.id, record.entityId, record.livemode, record.resource, externalIds],
      );
    return {
      checkpoint: rows[0]?.next_row,
      mapped: new Map(
        rows.filter((r) => r.external_id !== null).map((r) => [r.external_id!, r.resource_id!]),
      ),
    };
  }

  /**
   * Runs `fn` inside a savepoint of the open transaction: released when it succeeds, rolled back
   * to (and the error rethrown) when it throws, so one bad row leaves the batch's other rows.
   */
  inRowSavepoint<T>(fn: () => Promise<T>): Promise<T> {
    return this.tx.savepoint('import_row', fn);
  }

  /**
   * Saves the batch's external id mappings (the last write of an external id within the batch
   * wins) and row errors, and advances the checkpoint and counters: one statement.
   */
  async recordBatch(
    record: BatchImport,
    nextRow: number,
    landed: { externalId: string; resourceId: string }[],
    errors: ImportRowError[],
  ): Promise<void> {
    const unique = new Map(landed.map((l) => [l.externalId, l.resourceId]));
    const externalIds = [...unique.keys()];
    const sorted = [...errors].sort((a, b) => a.row - b.row);
    await this.tx.transactional.query(
      `WITH mappings AS (
         INSERT INTO import_external_ids (id, entity_id, livemode, resource, external_id, resource_id)
         SELECT id, $2, $3, $4, external_id, resource_id FROM unnest($5::uuid[], $6::text[], $7::uuid[]) AS t(id, external_id, resource_id)
         ON CONFLICT (entity_id, livemode, resource, external_id)
         DO UPDATE SET resource_id = EXCLUDED.resource_id, updated_at = now(), version = import_external_ids.version + 1
         WHERE import_external_ids.resource_id <> EXCLUDED.resource_id
       ), row_errors AS (
         INSERT INTO import_errors (id, entity_id, livemode, import_id, row_number, external_id, error)
         SELECT id, $2, $3, $1, row_number, external_id, error FROM unnest($8::uuid[], $9::int[], $10::text[], $11::jsonb[]) AS t(id, row_number, external_id, error)
         ON CONFLICT (import_id, row_number) DO NOTHING
       )
       UPDATE imports SET next_row = $12, processed = $12, succeeded = succeeded + $13, failed = failed + $14, updated_at = now(), version = version + 1
       WHERE id = $1`,
      [
        record.id,
        record.entityId,
        record.livemode,
        record.resource,
        externalIds.map(() => newId()),
        externalIds,
        externalIds.map((e) => unique.get(e)),
        sorted.map(() => newId()),
        sorted.map((e) => e.row),
        sorted.map((e) => e.externalId),
        sorted.map((e) => JSON.stringify(e.error)),
        nextRow,
        landed.length,
        sorted.length,
      ],
    );
  }
}
