import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListQueryDto } from '../http/list/list-query.dto';
import { ApiKeyService } from './api-key.service';
import { ApiKeyResponse, CreateApiKeyDto } from './api-key.dto';
import { RequireScopes } from './decorators';

/** Platform routes for the entity's API keys (API-CONTRACT.md section 4). */
@ApiTags('API keys')
@Controller('entities/:entity_id/api_keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Post()
  @RequireScopes('api_keys:write')
  @ApiOperation({
    summary: 'Create an API key',
    description: 'The plaintext key is in `secret`, shown only in this response.',
  })
  @ApiResponse({ status: 201, type: ApiKeyResponse })
  create(@Body() body: CreateApiKeyDto) {
    return this.keys.create(
      {
        name: body.name,
        scopes: body.scopes,
        ipAllowlist: body.ip_allowlist,
        rateLimitPerMinute: body.rate_limit_per_minute ?? null,
        expiresAt: body.expires_at ?? null,
      },
      body.mode,
    );
  }

  @Get()
  @RequireScopes('api_keys:read')
  @ApiOperation({ summary: 'List API keys' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.keys.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('api_keys:read')
  @ApiOperation({ summary: 'Retrieve an API key' })
  @ApiResponse({ status: 200, type: ApiKeyResponse })
  retrieve(@Param('id') id: string) {
    return this.keys.retrieve(id);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @RequireScopes('api_keys:write')
  @ApiOperation({
    summary: 'Rotate an API key',
    description: 'Issues a new key with the same settings and revokes this one at once.',
  })
  @ApiResponse({ status: 200, type: ApiKeyResponse })
  rotate(@Param('id') id: string) {
    return this.keys.rotate(id);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @RequireScopes('api_keys:write')
  @ApiOperation({ summary: 'Revoke an API key', description: 'Permanent and immediate.' })
  @ApiResponse({ status: 200, type: ApiKeyResponse })
  revoke(@Param('id') id: string) {
    return this.keys.revoke(id);
  }
}
