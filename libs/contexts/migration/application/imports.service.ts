import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { CsvRecordTooLongError, CsvSyntaxError } from '#platform/http/csv';
import { mib, MAX_UPLOAD_LINE_BYTES } from '#platform/http/request-body';
import { CsvToNdjson } from '#platform/imports/csv-records';
import { ImportRegistry } from '#platform/imports/import-registry';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { SourceNumbering, SourceRow, sourceRows } from '../domain/import-source';
import { MigrationError } from '../domain/migration-error';
import { RESOURCE_PATTERN } from '../domain/resource-name';
import { ImportErrorRepository } from '../infrastructure/import-error.repository';
import { ImportRepository } from '../infrastructure/import.repository';
import { ImportRowsRepository } from '../infrastructure/import-rows.repository';
import { newId } from '#platform/persistence/ids';
import { ImportQueue } from './import-queue';
import {
  ImportErrorResource,
  ImportResource,
  toImportErrorResource,
  toImportResource,
} from './import.presenter';

/** How long staged rows that no unfinished import will read are kept before the sweep deletes them. */
const UNREAD_ROWS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Bulk imports: accepts a source, queues its processing and reports progress and row errors. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly imports: ImportRepository,
    private readonly errors: ImportErrorRepository,
    private readonly queue: ImportQueue,
    private readonly rows: ImportRowsRepository,
    private readonly registry: ImportRegistry,
  ) {}

  /**
   * Stores the source and queues the import. A resource without a registered importer is
   * accepted: each of its rows is reported as a row error, never a failed import.
   */
  async create(
    resource: unknown,
    source: { format: 'json'; records: unknown[] } | { format: 'ndjson'; text: string },
  ): Promise<ImportResource> {
    const name = this.checkResource(resource);
    const text =
      source.format === 'json'
        ? source.records.map((r) => JSON.stringify(r) ?? 'null').join('\n')
        : source.text;
    const rows = sourceRows(text);
    if (rows.length === 0) this.noRecords(source.format === 'json' ? 'records' : 'body');
    return this.start(newId(), name, source.format, rows.length, rows);
  }

  /**
   * An NDJSON upload read as it arrives: the rows of each chunk (whole lines) are written to the
   * database and counted, so the API never holds the whole upload; the import is created when the
   * upload ends, and the rows of an upload that fails are deleted. The resource is checked before
   * a byte of the body is read.
   */
  async createFromStream(resource: unknown, chunks: AsyncIterable<string>): Promise<ImportResource> {
    const name = this.checkResource(resource);
    const importId = newId();
    const numbering = new SourceNumbering();
    let created = false;
    try {
      for await (const chunk of chunks) {
        const { firstIndex, rows } = numbering.next(chunk);
        await this.rows.stage(importId, firstIndex, rows);
      }
      if (numbering.count === 0) this.noRecords('body');
      const resource = await this.start(importId, name, 'ndjson', numbering.count);
      created = true;
      return resource;
    } finally {
      if (!created) await this.rows.discard(importId).catch(() => undefined);
    }
  }

  /**
   * A CSV upload read as it arrives: each chunk is turned into NDJSON records (a row of the
   * CSV, its header row naming the fields, becomes the object an NDJSON line would be, typed
   * by the resource's body schema) numbered by the CSV line each starts on, then staged as an
   * NDJSON upload. Malformed CSV is a 400 `parameter_invalid` (`param: "body"`) naming the line;
   * a record whose cells hold more than 1 MiB (one huge quoted cell, say) is a 413
   * `payload_too_large` naming its line (and the cell), refused as soon as it passes the limit.
   */
  async createFromCsv(resource: unknown, chunks: AsyncIterable<string>): Promise<ImportResource> {
    const name = this.checkResource(resource);
    const csv = new CsvToNdjson(this.registry.get(name)?.schema, MAX_UPLOAD_LINE_BYTES);
    async function* ndjson() {
      try {
        for await (const chunk of chunks) yield csv.push(chunk);
        yield csv.end();
      } catch (error) {
        if (error instanceof CsvRecordTooLongError) {
          const what = error.column === undefined ? 'The record' : `Cell ${error.column} of the record`;
          throw new MigrationError('payload_too_large', {
            param: 'body',
            hint: `${what} at line ${error.line} is longer than ${mib(error.limitBytes)}; a CSV record is at most ${mib(error.limitBytes)}.`,
            details: { line: error.line },
          }).asPreHandler();
        }
        if (!(error instanceof CsvSyntaxError)) throw error;
        throw new MigrationError('parameter_invalid', {
          param: 'body',
          hint: `Malformed CSV at line ${error.line}: ${error.message}`,
        }).asPreHandler();
      }
    }
    return this.createFromStream(name, ndjson());
  }

  private checkResource(resource: unknown): string {
    if (resource === undefined || resource === null || resource === '') {
      throw new MigrationError('parameter_missing', {
        param: 'resource',
        hint: 'Missing required parameter: resource.',
      }).asPreHandler();
    }
    if (typeof resource !== 'string' || !RESOURCE_PATTERN.test(resource)) {
      throw new MigrationError('parameter_invalid', {
        param: 'resource',
        hint: 'resource must be a resource name such as "tags" or "accounts".',
      }).asPreHandler();
    }
    return resource;
  }

  private noRecords(param: string): never {
    throw new MigrationError('parameter_invalid', {
      param,
      hint: 'The import has no records.',
    }).asPreHandler();
  }

  /** Creates the import (its rows already staged, or `rows` to store with it) and queues it. */
  private async start(
    id: string,
    resource: string,
    format: 'json' | 'ndjson',
    total: number,
    rows?: readonly SourceRow[],
  ): Promise<ImportResource> {
    const caller = RequestContext.caller();
    const created = await this.tx.run(async () => {
      const record = await this.imports.create(
        {
          resource,
          status: 'queued',
          sourceFormat: format,
          total,
          processed: 0,
          succeeded: 0,
          failed: 0,
          nextRow: 0,
          apiKeyId: caller.apiKeyId,
          failureReason: null,
          startedAt: null,
          completedAt: null,
        },
        id,
      );
      if (rows) await this.rows.store(record.id, rows);
      return record;
    });
    await this.queue.enqueue({ importId: created.id, entityId: caller.entityId, livemode: caller.livemode });
    return toImportResource(created);
  }

  /**
   * Queues again every unfinished import of every entity whose job is gone (removed, lost with
   * the queue's data) or failed (interrupted on its last attempt, or a failure whose handler
   * did not run), among those untouched for `untouchedForMs` (a running import advances its
   * row at every batch). PostgreSQL holds the truth: the new job resumes at the checkpoint.
   * Returns the ids queued again.
   */
  async resumeStranded(untouchedForMs: number): Promise<string[]> {
    const resumed: string[] = [];
    for (const row of await this.imports.unfinished(untouchedForMs)) {
      if (await this.queue.ensure({ importId: row.id, entityId: row.entityId, livemode: row.livemode }))
        resumed.push(row.id);
    }
    return resumed;
  }

  /**
   * Deletes rows staged more than a day ago that no unfinished import will read (uploads that
   * never became an import, rows an import left when it finished); answers how many rows.
   */
  async purgeUnreadRows(): Promise<number> {
    return this.rows.purgeOrphans(UNREAD_ROWS_KEPT_MS);
  }

  async retrieve(id: string): Promise<ImportResource> {
    return toImportResource(await this.imports.getById(id));
  }

  /** The rows of an import that did not land, in row order. */
  async listErrors(
    importId: string,
    query: ListQueryDto,
    url: string,
  ): Promise<ListPage<ImportErrorResource>> {
    await this.imports.getById(importId);
    const page = await this.errors.listOfImport(importId, query, url);
    return listEnvelope(page.rows.map(toImportErrorResource), page, url);
  }
}
