import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '../http/list/list-query.dto';
import { Route } from '../http/route';
import { StandardRoutes } from '../http/standard-routes';
import { ApiKeyService } from './api-key.service';
import { ApiKeyResponse, CreateApiKeyDto } from './api-key.dto';

/** Platform routes for the entity's API keys (docs/reference/authentication.md). */
@ApiTags('API keys')
@Controller('entities/:entity_id/api_keys')
@StandardRoutes({
  service: ApiKeyService,
  scope: 'api_keys',
  model: ApiKeyResponse,
  list: [ListQueryDto, 'List API keys'],
  actions: {
    rotate: [
      'Rotate an API key',
      {
        description: 'Issues a new key with the same settings and revokes this one at once.',
        secretFields: ['secret'],
      },
    ],
    revoke: ['Revoke an API key', { description: 'Permanent and immediate.' }],
  },
})
export class ApiKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Route('POST', '', {
    scopes: 'api_keys:write',
    summary: 'Create an API key',
    description: 'The plaintext key is in `secret`, shown only in this response.',
    returns: ApiKeyResponse,
    secretFields: ['secret'],
  })
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

  /** Written out: unlike the standard retrieve, it declares no `expand[]` query. */
  @Route('GET', ':id', { scopes: 'api_keys:read', summary: 'Retrieve an API key', returns: ApiKeyResponse })
  retrieve(@Param('id') id: string) {
    return this.keys.retrieve(id);
  }
}
