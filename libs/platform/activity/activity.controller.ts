import { Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ActivityQueryDto, ActivityResponse } from './activity.dto';
import { ActivityService } from './activity.service';
import { Route } from '../http/route';

/** The activity log: every mutation of the entity in the key's mode, newest first. */
@ApiTags('Activity')
@Controller('activity')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Route('GET', '', {
    scopes: 'activity:read',
    summary: 'List activity',
    description:
      'Every POST, PATCH, PUT and DELETE: the key, mode, method, path, resource type and id, status and request id. Written just after the response is sent, so an entry may appear a moment after its request. Newest first, cursor-paginated.',
    list: ActivityResponse,
  })
  list(@Query() query: ActivityQueryDto, @Req() req: Request) {
    return this.activity.list(query, req.originalUrl.split('?')[0]);
  }
}
