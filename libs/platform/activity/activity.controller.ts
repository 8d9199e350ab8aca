import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '../http/standard-routes';
import { ActivityQueryDto, ActivityResponse } from './activity.dto';
import { ActivityService } from './activity.service';

/** The activity log: every mutation of the entity in the key's mode, newest first. */
@ApiTags('Activity')
@Controller('activity')
@StandardRoutes({
  service: ActivityService,
  scope: 'activity',
  model: ActivityResponse,
  list: [
    ActivityQueryDto,
    'List activity',
    {
      description:
        'Every POST, PATCH, PUT and DELETE: the key, mode, method, path, resource type and id, status and request id. Written just after the response is sent, so an entry may appear a moment after its request. Newest first, cursor-paginated.',
      list: ActivityResponse,
    },
  ],
})
export class ActivityController {}
