import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalText } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class FreezeDto {
  @OptionalText(1000, { example: 'Cutover from the legacy ERP', maxLength: 1000 }) reason?: string;
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

@ResourceResponse('entity_freeze_event', { tail: ['livemode', 'created_at'] })
export class FreezeHistoryResponse {
  @ApiProperty({ enum: ['freeze', 'unfreeze'] }) action: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: FrozenByResponse }) actor: FrozenByResponse;
  @ApiProperty({ nullable: true, type: String }) request_id: string | null;
}
