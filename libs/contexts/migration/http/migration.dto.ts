import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class FreezeDto {
  @ApiPropertyOptional({ example: 'Cutover from the legacy ERP', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}

export class FrozenByResponse {
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Always null: there are no user accounts yet, only API keys.',
  })
  user_id: string | null;
  @ApiProperty({ format: 'uuid' }) api_key_id: string;
}

export class FreezeStatusResponse {
  @ApiProperty({ example: 'entity_freeze_status' }) object: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty() frozen: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Send as X-Freeze-Token (with a migrations:write key) to pass the freeze.',
  })
  freeze_token: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) frozen_at: string | null;
  @ApiProperty({ nullable: true, type: FrozenByResponse }) frozen_by: FrozenByResponse | null;
  @ApiProperty({ nullable: true, type: String, example: 'Cutover from the legacy ERP' }) reason:
    string | null;
  @ApiProperty({ description: 'True when the entity was already frozen.' }) idempotent: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Only in the unfreeze response.' })
  unfrozen_at?: string;
}

export class FreezeHistoryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'entity_freeze_event' }) object: string;
  @ApiProperty({ enum: ['freeze', 'unfreeze'] }) action: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: FrozenByResponse }) actor: FrozenByResponse;
  @ApiProperty({ nullable: true, type: String }) request_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class ImportQueryDto {
  @ApiPropertyOptional({
    example: 'tags',
    description: 'The resource of an NDJSON upload (application/x-ndjson).',
  })
  @IsOptional()
  @IsString()
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

export class ImportResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'import' }) object: string;
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

export class ImportErrorResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'import_error' }) object: string;
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
