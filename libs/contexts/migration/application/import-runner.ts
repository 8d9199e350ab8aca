import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { renderError } from '#platform/http/error-envelope';
import { Importer, ImportRegistry } from '#platform/imports/import-registry';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext, SystemCaller } from '#platform/tenancy/request-context';
import { parseRow, SourceRow } from '../domain/import-source';
import { importTransition, isFinished } from '../domain/import-status';
import { MigrationError } from '../domain/migration-error';
import {
  BatchImport,
  ImportBatchRepository,
  ImportRowError,
} from '../infrastructure/import-batch.repository';
import { ImportRecord } from '../infrastructure/import.entity';
import { ImportRepository } from '../infrastructure/import.repository';
import { ImportRowsRepository } from '../infrastructure/import-rows.repository';
import { toImportResource } from './import.presenter';

export const DEFAULT_BATCH_SIZE = 1000;

/** Thrown between batches when the worker is shutting down; the job's next attempt resumes. */
export class ImportInterruptedError extends Error {
  constructor(importId: string) {
    super(`Import ${importId} interrupted by worker shutdown; it resumes at its checkpoint`);
  }
}

interface Prepared {
  row: number;
  externalId: string;
  input: unknown;
}

const envelopeOf = (error: unknown): Record<string, unknown> => renderError(error, undefined).body;

/**
 * Runs an import in batches: each batch's rows are read from the database (the worker never holds
 * the whole source), validated, then written in one transaction that also advances the
 * `next_row` checkpoint, so a worker killed mid-run resumes after the last committed batch.
 * Records are upserted by external id through the context's importer, so nothing is created
 * twice. A batch whose transaction fails is redone row by row (a savepoint per row): good rows
 * land, bad rows are reported. An importer with a bulk path (`createMany`) creates the batch's
 * new records with a few multi-row statements instead of one service call each.
 */
@Injectable()
export class ImportRunner {
  private readonly logger = new Logger(ImportRunner.name);

  constructor(
    private readonly tx: TransactionHost,
    private readonly registry: ImportRegistry,
    private readonly events: EventPublisher,
    private readonly imports: ImportRepository,
    private readonly batches: ImportBatchRepository,
    private readonly rows: ImportRowsRepository,
  ) {}

  async run(
    importId: string,
    shouldStop: () => boolean = () => false,
    batchSize = DEFAULT_BATCH_SIZE,
  ): Promise<void> {
    const found = await this.imports.findAnyById(importId);
    if (!found || isFinished(found.status)) return;
    const caller: SystemCaller = {
      entityId: found.entityId,
      livemode: found.livemode,
      apiKeyId: found.apiKeyId,
      scopes: ['migrations:write'],
    };
    await RequestContext.runAsSystem(
      caller,
      () => this.runAsCaller(found, shouldStop, batchSize),
      `import_${importId}`,
    );
  }

  /** Marks an import failed as a whole (its job ran out of attempts). */
  async markFailed(importId: string, reason: string): Promise<void> {
    const found = await this.imports.findAnyById(importId);
    if (!found || importTransition('fail', found.status) === null) return;
    const caller: SystemCaller = {
      entityId: found.entityId,
      livemode: found.livemode,
      apiKeyId: found.apiKeyId,
    };
    await RequestContext.runAsSystem(caller, () =>
      this.tx.run(async () => {
        await this.imports.markFailed(importId, reason);
        await this.rows.remove(importId);
        const updated = await this.imports.lockById(importId);
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
      await this.tx.run(async () => {
        const updated = await this.imports.lockById(record.id);
        if (importTransition('start', updated.status) === null) return;
        await this.imports.markRunning(record.id);
        await this.events.publish('migration.import.started', {
          ...toImportResource(updated),
          status: 'running',
        });
      });
    }
    const importer = this.registry.get(record.resource);
    // The checkpoint is read once, then followed locally; each batch's lock re-checks it.
    let checkpoint: number | undefined;
    for (;;) {
      if (shouldStop()) throw new ImportInterruptedError(record.id);
      checkpoint ??= await this.imports.checkpoint(record.id);
      if (checkpoint >= record.total) break;
      checkpoint = await this.runBatch(record, importer, batchSize, checkpoint);
    }
    await this.tx.run(async () => {
      const current = await this.imports.lockById(record.id);
      const status = importTransition('complete', current.status, current.failed);
      if (status === null) return;
      await this.imports.markCompleted(record.id, status);
      await this.rows.remove(record.id);
      const finished = await this.imports.lockById(record.id);
      await this.events.publish('migration.import.completed', toImportResource(finished));
    });
  }

  /**
   * Reads, validates and writes the batch of rows from `start`; answers the new checkpoint, or
   * undefined when another runner committed this batch first (the caller reads it again).
   */
  private async runBatch(
    record: ImportRecord,
    importer: Importer | undefined,
    batchSize: number,
    start: number,
  ): Promise<number | undefined> {
    const slice = await this.rows.read(record.id, start, batchSize);
    const expected = Math.min(batchSize, record.total - start);
    if (slice.length !== expected)
      throw new Error(
        `Import ${record.id} has ${slice.length} of its rows ${start} to ${start + expected - 1} (of ${record.total})`,
      );
    const { prepared, errors } = await this.prepare(slice, importer);
    try {
      await this.commitBatch(record, start, slice.length, prepared, errors, importer, false);
    } catch (error) {
      if (error instanceof CheckpointMovedError) return undefined;
      this.logger.warn(
        { err: error, import_id: record.id, row: slice[0].row },
        'batch failed; retrying row by row',
      );
      try {
        await this.commitBatch(record, start, slice.length, prepared, errors, importer, true);
      } catch (retryError) {
        if (retryError instanceof CheckpointMovedError) return undefined;
        throw retryError;
      }
    }
    return start + slice.length;
  }

  /** Parses and validates rows outside any transaction (no writes). */
  private async prepare(
    slice: SourceRow[],
    importer: Importer | undefined,
  ): Promise<{ prepared: Prepared[]; errors: ImportRowError[] }> {
    const prepared: Prepared[] = [];
    const errors: ImportRowError[] = [];
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
    validationErrors: ImportRowError[],
    importer: Importer | undefined,
    rowByRow: boolean,
  ): Promise<void> {
    await this.tx.run(async () => {
      const mapped = await this.lockAndMap(
        record,
        start,
        prepared.map((p) => p.externalId),
      );
      const errors = [...validationErrors];
      const landed: { externalId: string; resourceId: string }[] = [];
      let perRow = prepared;
      if (!rowByRow && importer?.createMany) {
        // Records new to this import go through the bulk path (first occurrence of each external
        // id, when the importer's bulk path takes it); the rest (updates, repeats within the
        // batch, new records the bulk path leaves out) follow one by one, in row order.
        const fresh: Prepared[] = [];
        const seen = new Set<string>();
        perRow = [];
        for (const item of prepared) {
          if (!mapped.has(item.externalId) && !seen.has(item.externalId)) {
            seen.add(item.externalId);
            if (importer.createsInBulk?.(item.input) ?? true) {
              fresh.push(item);
              continue;
            }
          }
          perRow.push(item);
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
        const existingId = mapped.get(item.externalId) ?? null;
        const upsert = () => this.upsert(importer, item.input, existingId);
        try {
          const resourceId = rowByRow ? await this.batches.inRowSavepoint(upsert) : await upsert();
          mapped.set(item.externalId, resourceId);
          landed.push({ externalId: item.externalId, resourceId });
        } catch (error) {
          if (!rowByRow) throw error;
          if (!(error instanceof DomainError))
            this.logger.error({ err: error, import_id: record.id, row: item.row }, 'import row failed');
          errors.push({ row: item.row, externalId: item.externalId, error: envelopeOf(error) });
        }
      }
      await this.batches.recordBatch(record, start + count, landed, errors);
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
    record: BatchImport,
    start: number,
    externalIds: string[],
  ): Promise<Map<string, string>> {
    const { checkpoint, mapped } = await this.batches.lockCheckpointAndMappings(record, externalIds);
    if (checkpoint !== start) throw new CheckpointMovedError();
    return mapped;
  }
}

/** Another runner committed this batch first; the caller re-reads the checkpoint. */
class CheckpointMovedError extends Error {}
