import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { BuildsService } from '../application/builds.service';
import { BuildResponse, CreateBuildDto } from './build.dto';
import { toBuildResource } from './build.presenter';

@ApiTags('Inventory')
@Controller('inventory/builds')
@StandardRoutes({
  service: BuildsService,
  scope: 'inventory',
  model: BuildResponse,
  present: toBuildResource,
  create: [
    CreateBuildDto,
    'Build kits',
    {
      description:
        'Draws the components (build_consumption) and adds the kits (build_output) at the components’ cost, with a MANUFACTURING journal entry, atomically. status draft only records the build; 422 insufficient_stock names the short component in param.',
    },
  ],
  list: [ListQueryDto, 'List builds', { list: BuildResponse }],
  retrieve: ['Retrieve a build'],
  actions: {
    post: ['Post a draft build'],
    void: ['Void a draft build', { description: 'Posted builds are final (409 invalid_state).' }],
  },
})
export class BuildsController {}
