import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { renderError } from '../../../platform/http/error-envelope';
import { Importer, ImportRegistry } from '../../../platform/imports/import-registry';
import { newId } from '../../../platform/persistence/ids';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { Caller, RequestContext } from '../../../platform/tenancy/request-context';
import { parseRow, SourceRow, sourceRows } from '../domain/import-source';
import { importTransition, isFinished } from '../domain/import-status';
import { MigrationError } from '../domain/migration-error';
import { ImportRecord } from '../infrastructure/import.entity';
import { toImportResource } from './import.presenter';

export const DEFAULT_BATCH_SIZE = 1000;

/** Thrown between batches when the worker is shutting down; the job's next attempt resumes. */
export class ImportInterruptedError extends Error {
  constructor(importId: string) {
    super(`Import ${importId} interrupted by worker shutdown; it resumes at its checkpoint`);
  }
}

interface RowError {
  row: number;
  externalId: string | null;
  error: Record<string, unknown>;
}

interface Prepared {
  row: number;
  externalId: string;
  input: unknown;
}

const envelopeOf = (error: unknown): Record<string, unknown> => renderError(error, undefined).body;

/**
 * Runs an import in batches. Each batch is one transaction that also advances the
 * `next_row` checkpoint, so a worker killed mid-run resumes after the last committed batch;
 * records are upserted by external id through the context's importer, so nothing is
 * created twice. A batch whose transaction fails is redone row by row (a savepoint per
 * row): good rows land, bad rows are reported. An importer with a bulk path (`createMany`)
 * creates the batch's new records with a few multi-row statements instead of one service call each.
 */
@Injectable()
export class ImportRunner {
  private readonly logger = new Logger(ImportRunner.name);

  constructor(
    private readonly tx: TransactionHost,
    private readonly registry: ImportRegistry,
    private readonly events: EventPublisher,
  ) {}

  async run(
    importId: string,
    shouldStop: () => boolean = () => false,
    batchSize = DEFAULT_BATCH_SIZE,
  ): Promise<void> {
    const found: ImportRecord | null = await this.tx.dataSource
      .getRepository(ImportRecord)
      .createQueryBuilder('i')
      .addSelect('i.source')
      .where('i.id = :importId', { importId })
      .getOne();
    if (!found || isFinished(found.status)) return;
    const caller: Caller = {
      entityId: found.entityId,
      entityCode: '',
      livemode: found.livemode,
      apiKeyId: found.apiKeyId,
      scopes: new Set(['migrations:write']),
    };
    await RequestContext.runAs(
      caller,
      () => this.runAsCaller(found, shouldStop, batchSize),
      `import_${importId}`,
    );
  }

  /** Marks an import failed as a whole (its job ran out of attempts). */
  async markFailed(importId: string, reason: string): Promise<void> {
    const found = await this.tx.dataSource.getRepository(ImportRecord).findOne({ where: { id: importId } });
    if (!found || importTransition('fail', found.status) === null) return;
    const caller: Caller = {
      entityId: found.entityId,
      entityCode: '',
      livemode: found.livemode,
      apiKeyId: found.apiKeyId,
      scopes: new Set(),
    };
    await RequestContext.runAs(caller, () =>
      this.tx.run(async (manager) => {
        await manager.query(
          `UPDATE imports SET status = 'failed', failure_reason = $2, completed_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
          [importId, reason.slice(0, 500)],
        );
        const updated = await manager.getRepository(ImportRecord).findOneOrFail({ where: { id: importId } });
        await this.events.publish('migration.import.failed', toImportResource(updated));
      }),
    );
  }

  private async runAsCaller(
    record: ImportRecord,
    shouldStop: () => boolean,
    batchSize: number,
  ): Promise<void> {
    if (importTransition('start', record.status)) {
      await this.tx.run(async (manager) => {
        const updated = await this.lockImport(manager, record.id);
        if (importTransition('start', updated.status) === null) return;
        await manager.query(
          `UPDATE imports SET status = 'running', started_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
          [record.id],
        );
        await this.events.publish('migration.import.started', {
          ...toImportResource(updated),
          status: 'running',
        });
      });
    }
    const rows = sourceRows(record.source);
    const importer = this.registry.get(record.resource);
    const ahead: Ahead = {};
    for (;;) {
      if (shouldStop()) throw new ImportInterruptedError(record.id);
      const done = await this.runBatch(record, rows, importer, batchSize, ahead);
      if (done) break;
    }
    await this.tx.run(async (manager) => {
      const current = await this.lockImport(manager, record.id);
      const status = importTransition('complete', current.status, current.failed);
      if (status === null) return;
      await manager.query(
        `UPDATE imports SET status = $2, completed_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`,
        [record.id, status],
      );
      const finished = await this.lockImport(manager, record.id);
      await this.events.publish('migration.import.completed', toImportResource(finished));
    });
  }

  private async lockImport(manager: EntityManager, id: string): Promise<ImportRecord> {
    return manager
      .getRepository(ImportRecord)
      .createQueryBuilder('i')
      .where('i.id = :id', { id })
      .setLock('pessimistic_write')
      .getOneOrFail();
  }

  /** Processes the batch at the checkpoint; true when no rows remain. */
  private async runBatch(
    record: ImportRecord,
    rows: SourceRow[],
    importer: Importer | undefined,
    batchSize: number,
    ahead: Ahead,
  ): Promise<boolean> {
    // The checkpoint is read once, then followed locally; the batch's lock re-checks it.
    ahead.checkpoint ??= (
      await this.tx.dataSource.query(`SELECT next_row FROM imports WHERE id = $1`, [record.id])
    )[0].next_row as number;
    const start = ahead.checkpoint;
    if (start >= rows.length) return true;
    const slice = rows.slice(start, start + batchSize);
    const { prepared, errors } =
      ahead.start === start && ahead.result ? await ahead.result : await this.prepare(slice, importer);
    // Validation of the next batch (no writes) overlaps this batch's database round trips.
    const next = start + slice.length;
    ahead.start = next < rows.length ? next : undefined;
    ahead.result =
      next < rows.length ? this.prepare(rows.slice(next, next + batchSize), importer) : undefined;
    ahead.result?.catch(() => undefined);
    ahead.checkpoint = undefined;
    try {
      await this.commitBatch(record, start, slice.length, prepared, errors, importer, false);
    } catch (error) {
      if (error instanceof CheckpointMovedError) return false;
      this.logger.warn(
        { err: error, import_id: record.id, row: slice[0].row },
        'batch failed; retrying row by row',
      );
      try {
        await this.commitBatch(record, start, slice.length, prepared, errors, importer, true);
      } catch (retryError) {
        if (retryError instanceof CheckpointMovedError) return false;
        throw retryError;
      }
    }
    ahead.checkpoint = start + slice.length;
    return start + slice.length >= rows.length;
  }

  /** Parses and validates rows outside any transaction (no writes). */
  private async prepare(
    slice: SourceRow[],
    importer: Importer | undefined,
  ): Promise<{ prepared: Prepared[]; errors: RowError[] }> {
    const prepared: Prepared[] = [];
    const errors: RowError[] = [];
    for (const { row, text } of slice) {
      const parsed = parseRow(text);
      if (!parsed.ok) {
        errors.push({
          row,
          externalId: parsed.externalId,
          error: envelopeOf(new MigrationError(parsed.code, { hint: parsed.hint, param: parsed.param })),
        });
        continue;
      }
      if (!importer) {
        errors.push({
          row,
          externalId: parsed.externalId,
          error: envelopeOf(
            new MigrationError('parameter_invalid', {
              param: 'resource',
              hint: `No importer is registered for this resource; importable resources: ${this.registry.resources().join(', ') || 'none'}.`,
            }),
          ),
        });
        continue;
      }
      try {
        prepared.push({ row, externalId: parsed.externalId, input: await importer.validate(parsed.record) });
      } catch (error) {
        errors.push({ row, externalId: parsed.externalId, error: envelopeOf(error) });
      }
    }
    return { prepared, errors };
  }

  private async commitBatch(
    record: ImportRecord,
    start: number,
    count: number,
    prepared: Prepared[],
    validationErrors: RowError[],
    importer: Importer | undefined,
    rowByRow: boolean,
  ): Promise<void> {
    await this.tx.run(async (manager) => {
      const mapped = await this.lockAndMap(
        manager,
        record,
        start,
        prepared.map((p) => p.externalId),
      );
      const errors = [...validationErrors];
      const landed: { externalId: string; resourceId: string }[] = [];
      let perRow = prepared;
      if (!rowByRow && importer?.createMany) {
        // Records new to this import go through the bulk path (first occurrence of each external
        // id); the rest (updates, repeats within the batch) follow one by one, in row order.
        const fresh: Prepared[] = [];
        const seen = new Set<string>();
        perRow = [];
        for (const item of prepared) {
          if (!mapped.has(item.externalId) && !seen.has(item.externalId)) {
            seen.add(item.externalId);
            fresh.push(item);
          } else perRow.push(item);
        }
        const results = fresh.length > 0 ? await importer.createMany(fresh.map((f) => f.input)) : [];
        if (results.length !== fresh.length)
          throw new Error(
            `Importer ${importer.resource} returned ${results.length} results for ${fresh.length} records`,
          );
        fresh.forEach((item, i) => {
          const result = results[i];
          if ('id' in result) {
            mapped.set(item.externalId, result.id);
            landed.push({ externalId: item.externalId, resourceId: result.id });
          } else {
            if (!(result.error instanceof DomainError)) throw result.error;
            errors.push({ row: item.row, externalId: item.externalId, error: envelopeOf(result.error) });
          }
        });
      }
      for (const item of perRow) {
        if (!importer) break;
        if (rowByRow) await manager.query('SAVEPOINT import_row');
        try {
          const resourceId = await this.upsert(importer, item.input, mapped.get(item.externalId) ?? null);
          mapped.set(item.externalId, resourceId);
          landed.push({ externalId: item.externalId, resourceId });
          if (rowByRow) await manager.query('RELEASE SAVEPOINT import_row');
        } catch (error) {
          if (!rowByRow) throw error;
          await manager.query('ROLLBACK TO SAVEPOINT import_row');
          if (!(error instanceof DomainError))
            this.logger.error({ err: error, import_id: record.id, row: item.row }, 'import row failed');
          errors.push({ row: item.row, externalId: item.externalId, error: envelopeOf(error) });
        }
      }
      await this.finishBatch(manager, record, start + count, landed, errors);
    });
  }

  /** Creates or updates one record; a mapped record deleted since is created again. */
  private async upsert(importer: Importer, input: unknown, existingId: string | null): Promise<string> {
    if (existingId) {
      try {
        return (await importer.upsert(input, existingId)).id;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'not_found') throw error;
      }
    }
    return (await importer.upsert(input, null)).id;
  }

  /**
   * Locks the import row, checks the checkpoint is still `start` (else CheckpointMovedError) and
   * reads the resources already mapped to the batch's external ids: one statement.
   */
  private async lockAndMap(
    manager: EntityManager,
    record: ImportRecord,
    start: number,
    externalIds: string[],
  ): Promise<Map<string, string>> {
    const rows: { next_row: number; external_id: string | null; resource_id: string | null }[] =
      await manager.query(
        `SELECT i.next_row, m.external_id, m.resource_id
       FROM (SELECT next_row FROM imports WHERE id = $1 FOR UPDATE) i
       LEFT JOIN import_external_ids m
         ON m.entity_id = $2 AND m.livemode = $3 AND m.resource = $4 AND m.external_id = ANY($5::text[])`,
        [record.id, record.entityId, record.livemode, record.resource, externalIds],
      );
    if (rows.length === 0 || rows[0].next_row !== start) throw new CheckpointMovedError();
    return new Map(rows.filter((r) => r.external_id !== null).map((r) => [r.external_id!, r.resource_id!]));
  }

  /**
   * Saves the batch's external id mappings (the last write of an external id within the batch
   * wins) and row errors, and advances the checkpoint and counters: one statement.
   */
  private async finishBatch(
    manager: EntityManager,
    record: ImportRecord,
    nextRow: number,
    landed: { externalId: string; resourceId: string }[],
    errors: RowError[],
  ): Promise<void> {
    const unique = new Map(landed.map((l) => [l.externalId, l.resourceId]));
    const externalIds = [...unique.keys()];
    errors.sort((a, b) => a.row - b.row);
    await manager.query(
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
        errors.map(() => newId()),
        errors.map((e) => e.row),
        errors.map((e) => e.externalId),
        errors.map((e) => JSON.stringify(e.error)),
        nextRow,
        landed.length,
        errors.length,
      ],
    );
  }
}

/** The prepared (validated) rows of the batch after the current one, computed while it commits. */
interface Ahead {
  /** The checkpoint as this runner last committed it (undefined: read it again). */
  checkpoint?: number;
  start?: number;
  result?: Promise<{ prepared: Prepared[]; errors: RowError[] }>;
}

/** Another runner committed this batch first; the caller re-reads the checkpoint. */
class CheckpointMovedError extends Error {}
