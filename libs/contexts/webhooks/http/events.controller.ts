import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiListResponse } from '#platform/http/list/api-list-response';
import type { Request } from 'express';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { EventsService } from '../application/events.service';
import { EventListQueryDto, EventResponse, EventTypeResponse } from './event.dto';

/** The event catalog and the entity's events (kept 30 days). */
@ApiTags('Events')
@Controller('entities/:entity_id')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Route('GET', 'event_types', {
    scopes: 'events:read',
    summary: 'List the event types',
    description: 'All 118 types in one list (has_more false).',
  })
  @ApiListResponse(EventTypeResponse, 'All types; has_more is false.')
  eventTypes(@Req() req: Request) {
    return this.events.eventTypes(requestPath(req));
  }

  @Route('GET', 'events', {
    scopes: 'events:read',
    summary: 'List events',
    description: 'Newest first, cursor-paginated; filters type, created_after, created_before.',
  })
  list(@Query() query: EventListQueryDto, @Req() req: Request) {
    return this.events.list(query, requestPath(req));
  }

  @Route('GET', 'events/:id', { scopes: 'events:read', summary: 'Retrieve an event', returns: EventResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.events.retrieve(id);
  }
}
