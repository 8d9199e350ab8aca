import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../auth/decorators';
import { ApiListResponse } from '../http/list/api-list-response';
import { ActivityQueryDto, ActivityResponse } from './activity.dto';
import { ActivityService } from './activity.service';

/** The activity log: every mutation of the entity in the key's mode, newest first. */
@ApiTags('Activity')
@Controller('activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Get()
  @RequireScopes('activity:read')
  @ApiOperation({
    summary: 'List activity',
    description:
      'Every POST, PATCH, PUT and DELETE: the key, mode, method, path, resource type and id, status and request id. Written just after the response is sent, so an entry may appear a moment after its request. Newest first, cursor-paginated.',
  })
  @ApiListResponse(ActivityResponse)
  list(@Query() query: ActivityQueryDto, @Req() req: Request) {
    return this.activity.list(query, req.originalUrl.split('?')[0]);
  }
}
