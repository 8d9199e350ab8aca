import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { AllowWhileFrozen } from '../../../platform/auth/mutation-gate';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { FreezeService } from '../application/freeze.service';
import { FreezeDto, FreezeHistoryResponse, FreezeStatusResponse } from './migration.dto';

/**
 * Cutover freeze (SPEC.md "Entity freeze", API-CONTRACT.md section 7). Served under
 * `/entities/{entity_id}/migration/cutover` and, for tools that only hold a key, at
 * `/migration/cutover` (the key's entity).
 */
@ApiTags('Migration')
@Controller(['entities/:entity_id/migration/cutover', 'migration/cutover'])
export class CutoverController {
  constructor(private readonly freezes: FreezeService) {}

  @Get()
  @RequireScopes('migrations:read')
  @ApiOperation({ summary: 'Retrieve the freeze status', description: 'Of the entity in the key’s mode.' })
  @ApiResponse({ status: 200, type: FreezeStatusResponse })
  status() {
    return this.freezes.status();
  }

  @Post('freeze')
  @HttpCode(200)
  @AllowWhileFrozen()
  @RequireScopes('migrations:write')
  @ApiOperation({
    summary: 'Freeze the entity for cutover',
    description:
      'Every mutation of the entity (this mode) then answers 423 entity_frozen, unless a migrations:write key sends the freeze token in X-Freeze-Token. A repeated call returns the same token with idempotent true.',
  })
  @ApiResponse({ status: 200, type: FreezeStatusResponse })
  freeze(@Body() body: FreezeDto) {
    return this.freezes.freeze(body.reason);
  }

  @Post('unfreeze')
  @HttpCode(200)
  @AllowWhileFrozen()
  @RequireScopes('migrations:write')
  @ApiOperation({
    summary: 'Unfreeze the entity',
    description: '409 invalid_state when the entity is not frozen.',
  })
  @ApiResponse({ status: 200, type: FreezeStatusResponse })
  unfreeze(@Body() body: FreezeDto) {
    return this.freezes.unfreeze(body.reason);
  }

  @Get('history')
  @RequireScopes('migrations:read')
  @ApiOperation({
    summary: 'List freezes and unfreezes',
    description: 'The audit log: action, reason, key and time; newest first.',
  })
  @ApiResponse({ status: 200, type: FreezeHistoryResponse, isArray: true })
  history(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.freezes.listHistory(query, req.originalUrl.split('?')[0]);
  }
}
