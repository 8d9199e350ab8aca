import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { IsDateTime, OneOf, OptionalField } from '#platform/http/dto-fields';
import { EVENT_CATALOG } from '#platform/events/event-catalog';
import { ResourceResponse } from '#platform/http/response-schema';
import { API_VERSION } from '#platform/events/event-publisher';

export class EventListQueryDto extends ListQueryDto {
  @OptionalField(
    {
      example: 'order.confirmed',
      description: 'Only events of this type (an event type of GET /entities/{entity_id}/event_types).',
    },
    IsString(),
    OneOf(() => EVENT_CATALOG.map((definition) => definition.type)),
  )
  type?: string;

  @OptionalField({ format: 'date-time' }, IsDateTime()) created_after?: string;

  @OptionalField({ format: 'date-time' }, IsDateTime()) created_before?: string;
}

export class EventTypeResponse {
  @ApiProperty({ example: 'order.confirmed' }) type: string;
  @ApiProperty({ example: 'order' }) family: string;
  @ApiProperty({ example: 'An order was confirmed.' }) description: string;
}

@ResourceResponse('event', { tail: [] })
export class EventResponse {
  @ApiProperty({ example: 'order.confirmed' }) type: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ example: API_VERSION }) api_version: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({
    example: { object: { id: '0190...', object: 'order' } },
    description: '`object`: the full resource at the time; `previous_attributes` on updates.',
  })
  data: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', nullable: true, example: 'req_8fK2mQ4b1c9f0e2d4a6b8c7e' } },
    description: 'The API request that caused the event (null for scheduled work).',
  })
  request: { id: string | null };
}
