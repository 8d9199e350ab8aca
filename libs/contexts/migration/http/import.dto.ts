import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalField } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class ImportQueryDto {
  @OptionalField(
    {
      example: 'tags',
      description: 'The resource of an NDJSON upload (application/x-ndjson).',
    },
    IsString(),
  )
  resource?: string;
}

export class CreateImportDto {
  @ApiProperty({
    example: 'tags',
    description:
      'Importable now: tags. accounts, products, orders and journal_entries register when their contexts land.',
  })
  resource: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    example: [{ external_id: 'LEGACY-1', name: 'Wholesale' }],
  })
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
  @ApiProperty({ example: 17, description: 'Line of the NDJSON upload, or 1-based index in records.' })
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
