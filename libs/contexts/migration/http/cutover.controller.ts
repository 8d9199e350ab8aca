import { Body, Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AllowWhileFrozen } from '#platform/auth/mutation-gate';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { FreezeService } from '../application/freeze.service';
import { FreezeDto, FreezeHistoryResponse, FreezeStatusResponse } from './cutover.dto';

/**
 * Cutover freeze (docs/reference/resources.md). Served under
 * `/entities/{entity_id}/migration/cutover` and, for tools that only hold a key, at
 * `/migration/cutover` (the key's entity).
 */
@ApiTags('Migration')
@Controller(['entities/:entity_id/migration/cutover', 'migration/cutover'])
export class CutoverController {
  constructor(private readonly freezes: FreezeService) {}

  @Route('GET', '', {
    scopes: 'migrations:read',
    summary: 'Retrieve the freeze status',
    description: 'Of the entity in the key’s mode.',
    returns: FreezeStatusResponse,
  })
  status() {
    return this.freezes.status();
  }

  @Route('POST', 'freeze', {
    scopes: 'migrations:write',
    summary: 'Freeze the entity for cutover',
    description:
      'Every mutation of the entity (this mode) then answers 423 entity_frozen, unless a migrations:write key sends the freeze token in X-Freeze-Token. A repeated call returns the same token with idempotent true.',
    code: 200,
    returns: FreezeStatusResponse,
  })
  @AllowWhileFrozen()
  freeze(@Body() body: FreezeDto) {
    return this.freezes.freeze(body.reason);
  }

  @Route('POST', 'unfreeze', {
    scopes: 'migrations:write',
    summary: 'Unfreeze the entity',
    description: '409 invalid_state when the entity is not frozen.',
    code: 200,
    returns: FreezeStatusResponse,
  })
  @AllowWhileFrozen()
  unfreeze(@Body() body: FreezeDto) {
    return this.freezes.unfreeze(body.reason);
  }

  @Route('GET', 'history', {
    scopes: 'migrations:read',
    summary: 'List freezes and unfreezes',
    description: 'The audit log: action, reason, key and time; newest first.',
    response: { status: 200, type: FreezeHistoryResponse, isArray: true },
  })
  history(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.freezes.listHistory(query, requestPath(req));
  }
}
