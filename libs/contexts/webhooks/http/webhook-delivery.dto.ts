import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { OptionalEnum } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class DeliveryListQueryDto extends ListQueryDto {
  @OptionalEnum(['pending', 'succeeded', 'failed', 'cancelled']) status?: string;
}

@ResourceResponse('webhook_delivery')
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({ example: 'order.confirmed' }) event_type: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'cancelled'], example: 'pending' }) status: string;
  @ApiProperty({ example: 1 }) attempt_count: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_retry_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) delivered_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) failed_at: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 200 }) response_status: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'First 500 bytes of the response body.' })
  response_body: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Transport error of the last attempt (timeout, refused).',
  })
  error: string | null;
}

export class DeliveryListResponse {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [WebhookDeliveryResponse] }) data: WebhookDeliveryResponse[];
  @ApiProperty() has_more: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Pass as starting_after for the next page.',
  })
  next_cursor: string | null;
  @ApiProperty() url: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Only with include_count=true.' })
  total_count?: number;
}
