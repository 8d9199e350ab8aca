import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppConfig } from '#platform/config/app-config';
import { EnqueuesJobs } from '#platform/queue/queue-availability';
import { bodyChunks, MAX_STREAMED_BODY_BYTES, StreamsBody } from '#platform/http/request-body';
import { AllowWhileFrozen } from '#platform/auth/mutation-gate';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { ImportsService } from '../application/imports.service';
import { MigrationError } from '../domain/migration-error';
import { ApiImportBody, ImportErrorResponse, ImportQueryDto, ImportResponse } from './import.dto';

const NDJSON = /ndjson/i;
const CSV = /^\s*text\/csv\b/i;
const STREAMED = /ndjson|^\s*text\/csv\b/i;
const contentType = (req: Request) => String(req.headers['content-type'] ?? '');
/** Staged chunks of an NDJSON or CSV upload (whole lines, about 1 MiB each). */
const CHUNK_BYTES = 1024 * 1024;

/** Bulk imports; they run while the entity is frozen (their callers are migration callers). */

@ApiTags('Migration')
@Controller('entities/:entity_id/migration/imports')
@StandardRoutes({
  service: ImportsService,
  scope: 'migrations',
  model: ImportResponse,
  retrieve: [
    'Retrieve an import',
    { description: 'Status and progress: total, processed, succeeded, failed.' },
  ],
})
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly config: AppConfig,
  ) {}

  @Route('POST', '', {
    scopes: 'migrations:write',
    summary: 'Start a bulk import',
    description:
      'JSON `{ resource, records: [...] }` (up to 1 MiB), or an NDJSON upload (`Content-Type: application/x-ndjson`, one record per line) or a CSV upload (`Content-Type: text/csv`, a header row then one record per row) with `?resource=`, up to 64 MiB, streamed: read only after the key and its `migrations:write` scope are checked. A line (an NDJSON record; a CSV record, its quoted line breaks included) is at most 1 MiB: a longer one is 413 `payload_too_large` with `line` naming it, and no import is created. Each record has an `external_id`. Records are upserted by external id, so running an import twice creates nothing twice.',
    returns: ImportResponse,
  })
  @AllowWhileFrozen()
  @EnqueuesJobs()
  @StreamsBody(STREAMED, MAX_STREAMED_BODY_BYTES, ['application/x-ndjson', 'text/csv'])
  @ApiImportBody()
  create(@Req() req: Request, @Query() query: ImportQueryDto) {
    const type = contentType(req);
    if (NDJSON.test(type) || CSV.test(type)) {
      const chunks = bodyChunks(req, {
        limitBytes: MAX_STREAMED_BODY_BYTES,
        idleMs: this.config.HTTP_BODY_IDLE_TIMEOUT_MS,
        chunkBytes: CHUNK_BYTES,
      });
      return CSV.test(type)
        ? this.imports.createFromCsv(query.resource, chunks)
        : this.imports.createFromStream(query.resource, chunks);
    }
    const body = req.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new MigrationError('parameter_invalid', {
        hint: 'The request body must be a JSON object.',
      }).asPreHandler();
    }
    const { resource, records, ...unknown } = body as Record<string, unknown>;
    const extra = Object.keys(unknown)[0];
    if (extra !== undefined)
      throw new MigrationError('parameter_unknown', {
        param: extra,
        hint: `Received unknown parameter: ${extra}.`,
      }).asPreHandler();
    if (records === undefined)
      throw new MigrationError('parameter_missing', {
        param: 'records',
        hint: 'Missing required parameter: records.',
      }).asPreHandler();
    if (!Array.isArray(records))
      throw new MigrationError('parameter_invalid', {
        param: 'records',
        hint: 'records must be an array.',
      }).asPreHandler();
    return this.imports.create(resource ?? query.resource, { format: 'json', records });
  }

  @Route('GET', ':id/errors', {
    scopes: 'migrations:read',
    summary: 'List the row errors of an import',
    description: 'In row order, cursor-paginated: row, external_id and the error envelope.',
    response: { status: 200, type: ImportErrorResponse, isArray: true },
  })
  errors(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
    return this.imports.listErrors(id, query, requestPath(req));
  }
}
