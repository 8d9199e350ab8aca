import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { KitComponentsService } from '../application/kit-components.service';
import { CreateKitComponentDto, KitComponentResponse, UpdateKitComponentDto } from './kit-component.dto';
import { toKitComponentResource } from './kit-component.presenter';

@ApiTags('Kit components')
@Controller('products')
@StandardRoutes({
  service: KitComponentsService,
  scope: 'products',
  model: KitComponentResponse,
  path: ':id/components',
  id: 'component_id',
  present: toKitComponentResource,
  create: [
    CreateKitComponentDto,
    'Add a component to a kit',
    {
      call: 'add',
      description: 'Only products of type kit have components (409 invalid_state otherwise); cycles are 400.',
    },
  ],
  list: [
    ListQueryDto,
    "List a kit's components",
    {
      response: { status: 409, description: 'The product is not a kit (invalid_state).' },
      list: KitComponentResponse,
    },
  ],
  retrieve: ['Retrieve a kit component'],
  update: [UpdateKitComponentDto, "Change a component's quantity per kit"],
  delete: ['Remove a component from a kit', { call: 'remove', handler: 'remove' }],
})
export class KitComponentsController {}
