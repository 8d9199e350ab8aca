import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsOptional, IsString, Matches } from 'class-validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { OptionalField } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { RESOURCE_PATTERN } from '../domain/resource-name';

/**
 * What `resource` names, where the import takes it from, as the description states it (the
 * JSON body's field and the query parameter say the same).
 */
const RESOURCE_DOC =
  "A resource name: a lower-case letter, then up to 63 lower-case letters, digits or underscores. Importable: accounts, journal_entries, orders, products, tags; another name matching the pattern is accepted and each of its rows is reported as a row error (`parameter_invalid` naming `resource`). Required in one of two places: the JSON body's `resource`, or this query parameter (the body wins when both are given; the streamed NDJSON and CSV uploads take it here only); with neither, 400 `parameter_missing` naming `resource`.";

export class ImportQueryDto {
  @OptionalField({ example: 'tags', description: RESOURCE_DOC }, IsString(), Matches(RESOURCE_PATTERN))
  resource?: string;
}

@CrossFieldRules({
  kind: 'one_required',
  fields: ['resource'],
  param: 'resource',
  sentence:
    'resource is required here unless the `resource` query parameter gives it (the body wins when both are given).',
})
export class CreateImportDto {
  // The controller checks the body itself (ImportsService.checkResource reads RESOURCE_PATTERN);
  // these rules state the same pattern in the description.
  @ApiProperty({ required: false, example: 'tags', description: RESOURCE_DOC })
  @IsOptional()
  @IsString()
  @Matches(RESOURCE_PATTERN)
  resource?: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      "Each record is one JSON object. Any other value (a string, a number, null, an array) does not refuse the upload: it is reported as that row's error (`parameter_invalid`, in GET .../imports/{id}/errors) and the other rows import.",
    example: [{ external_id: 'LEGACY-1', name: 'Wholesale' }],
  })
  @IsArray()
  @ArrayMinSize(1)
  records: Record<string, unknown>[];
}

@ResourceResponse('import', { tail: [] })
export class ImportResponse {
  @ApiProperty({ example: 'tags' }) resource: string;
  @ApiProperty({ enum: ['queued', 'running', 'completed', 'completed_with_errors', 'failed'] })
  status: string;
  @ApiProperty({ example: 1000 }) total: number;
  @ApiProperty({ example: 500 }) processed: number;
  @ApiProperty({ example: 495 }) succeeded: number;
  @ApiProperty({ example: 5 }) failed: number;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ nullable: true, type: String }) failure_reason: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
}

@ResourceResponse('import_error', { tail: [] })
export class ImportErrorResponse {
  @ApiProperty({ format: 'uuid' }) import_id: string;
  @ApiProperty({
    example: 17,
    description:
      'Line of the NDJSON upload, line of the CSV upload where the record starts (the header row is line 1), or 1-based index in records.',
  })
  row: number;
  @ApiProperty({ nullable: true, type: String, example: 'LEGACY-17' }) external_id: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      error: 'parameter_missing',
      code: 'parameter_missing',
      type: 'validation_error',
      param: 'name',
    },
  })
  error: Record<string, unknown>;
}

const NDJSON_EXAMPLE =
  '{"external_id":"LEGACY-1","name":"Wholesale"}\n{"external_id":"LEGACY-2","name":"Retail, West"}\n';

const CSV_EXAMPLE = [
  'external_id,document_type,account_id,notes,lines.0.description,lines.0.quantity,lines.0.unit_price,lines.1.description,lines.1.quantity,lines.1.unit_price',
  'SO-1001,sales_order,0b7ad3a4-3f6e-4c1e-9d7a-5a1f2e3d4c5b,"Rush, ""gift"" wrap",Widget,2,10.5,Gadget,1,4',
  'SO-1002,sales_order,0b7ad3a4-3f6e-4c1e-9d7a-5a1f2e3d4c5b,,Widget,5,10.5,,,',
  '',
].join('\r\n');

/**
 * The request body of POST /migration/imports in its three forms: JSON, NDJSON and CSV
 * (the streamed forms name the resource with `?resource=`).
 */
export const ApiImportBody = () =>
  applyDecorators(
    ApiExtraModels(CreateImportDto),
    ApiOperation({
      requestBody: {
        required: true,
        description: 'JSON `{ resource, records }`, or a streamed NDJSON or CSV upload with `?resource=`.',
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(CreateImportDto) },
            example: { resource: 'tags', records: [{ external_id: 'LEGACY-1', name: 'Wholesale' }] },
          },
          'application/x-ndjson': {
            schema: {
              type: 'string',
              description:
                'One JSON record per line, each with an `external_id`; blank lines are skipped and row errors name the line.',
            },
            example: NDJSON_EXAMPLE,
          },
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'RFC 4180 CSV (UTF-8, a byte order mark tolerated; LF or CRLF; quoted cells may hold commas, doubled quotes and line breaks). The header row names the fields: a dotted header is a nested field (`billing_address.line1`) and a numeric segment an array index (`lines.0.quantity`, `lines.1.quantity`, ...). Each row becomes the record an NDJSON line would be: an empty cell leaves its field absent (array elements with no filled cell are dropped), cells are strings except where the resource\'s create body has a number or boolean field (numeric cells become numbers, `true`/`false` booleans). Row errors name the CSV line where the record starts (the header is line 1). Malformed CSV (an unclosed quote, a row with more cells than the header, a bad header) is a 400 `parameter_invalid` with `param: "body"` naming the line.',
            },
            example: CSV_EXAMPLE,
          },
        },
      },
    } as Parameters<typeof ApiOperation>[0]),
  );
