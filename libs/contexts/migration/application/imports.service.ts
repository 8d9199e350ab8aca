import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '../../../platform/http/list/paginate';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { sourceRows } from '../domain/import-source';
import { MigrationError } from '../domain/migration-error';
import { ImportErrorRepository, ImportRepository } from '../infrastructure/import.repository';
import { ImportQueue } from './import-queue';
import {
  ImportErrorResource,
  ImportResource,
  toImportErrorResource,
  toImportResource,
} from './import.presenter';

export const RESOURCE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** Bulk imports: accepts a source, queues its processing and reports progress and row errors. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly imports: ImportRepository,
    private readonly errors: ImportErrorRepository,
    private readonly queue: ImportQueue,
  ) {}

  /**
   * Stores the source and queues the import. A resource without a registered importer is
   * accepted: each of its rows is reported as a row error, never a failed import.
   */
  async create(
    resource: unknown,
    source: { format: 'json'; records: unknown[] } | { format: 'ndjson'; text: string },
  ): Promise<ImportResource> {
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
    const text =
      source.format === 'json'
        ? source.records.map((r) => JSON.stringify(r) ?? 'null').join('\n')
        : source.text;
    const total = sourceRows(text).length;
    if (total === 0) {
      throw new MigrationError('parameter_invalid', {
        param: source.format === 'json' ? 'records' : 'body',
        hint: 'The import has no records.',
      }).asPreHandler();
    }
    const caller = RequestContext.caller();
    const created = await this.tx.run(() =>
      this.imports.create({
        resource,
        status: 'queued',
        source: text,
        sourceFormat: source.format,
        total,
        processed: 0,
        succeeded: 0,
        failed: 0,
        nextRow: 0,
        apiKeyId: caller.apiKeyId,
        failureReason: null,
        startedAt: null,
        completedAt: null,
      }),
    );
    await this.queue.enqueue({ importId: created.id, entityId: caller.entityId, livemode: caller.livemode });
    return toImportResource(created);
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
    const page = await this.errors.page(query, { url, direction: 'asc' }, (qb) =>
      qb.andWhere('r.import_id = :importId', { importId }),
    );
    return listEnvelope(page.rows.map(toImportErrorResource), page, url);
  }
}
