import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { EventsService } from '../application/events.service';
import { EventListQueryDto, EventResponse, EventTypeResponse } from './webhook.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

/** The event catalog and the entity's events (kept 30 days). */
@ApiTags('Events')
@Controller('entities/:entity_id')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get('event_types')
  @RequireScopes('events:read')
  @ApiOperation({
    summary: 'List the event types',
    description: 'All 118 types in one list (has_more false).',
  })
  @ApiListResponse(EventTypeResponse, 'All types; has_more is false.')
  eventTypes(@Req() req: Request) {
    return this.events.eventTypes(path(req));
  }

  @Get('events')
  @RequireScopes('events:read')
  @ApiOperation({
    summary: 'List events',
    description: 'Newest first, cursor-paginated; filters type, created_after, created_before.',
  })
  list(@Query() query: EventListQueryDto, @Req() req: Request) {
    return this.events.list(query, path(req));
  }

  @Get('events/:id')
  @RequireScopes('events:read')
  @ApiOperation({ summary: 'Retrieve an event' })
  @ApiResponse({ status: 200, type: EventResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.events.retrieve(id);
  }
}
