import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AllowWhileFrozen } from '#platform/auth/mutation-gate';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { FreezeService } from '../application/freeze.service';
import { FreezeDto, FreezeHistoryResponse, FreezeStatusResponse } from './cutover.dto';

/**
 * Cutover freeze (docs/reference/resources.md). Served under
 * `/entities/{entity_id}/migration/cutover` and, for tools that only hold a key, at
 * `/migration/cutover` (the key's entity).
 */
@ApiTags('Migration')
@Controller(['entities/:entity_id/migration/cutover', 'migration/cutover'])
@StandardRoutes({
  service: FreezeService,
  scope: 'migrations',
  model: FreezeStatusResponse,
  actions: {
    status: [
      'Retrieve the freeze status',
      { collection: true, method: 'GET', path: '', description: 'Of the entity in the key’s mode.' },
    ],
    freeze: [
      'Freeze the entity for cutover',
      {
        collection: true,
        input: FreezeDto,
        description:
          'Every mutation of the entity (this mode) then answers 423 entity_frozen, unless a migrations:write key sends the freeze token in X-Freeze-Token. A repeated call returns the same token with idempotent true.',
        decorators: [AllowWhileFrozen()],
      },
    ],
    unfreeze: [
      'Unfreeze the entity',
      {
        collection: true,
        input: FreezeDto,
        description: '409 invalid_state when the entity is not frozen.',
        decorators: [AllowWhileFrozen()],
      },
    ],
    listHistory: [
      'List freezes and unfreezes',
      {
        handler: 'history',
        collection: true,
        method: 'GET',
        query: ListQueryDto,
        description: 'The audit log: action, reason, key and time; newest first.',
        response: { status: 200, type: FreezeHistoryResponse, isArray: true },
      },
    ],
  },
})
export class CutoverController {}
