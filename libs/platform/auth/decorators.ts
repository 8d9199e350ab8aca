import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';

export const SCOPES_KEY = 'erp:scopes';
export const PUBLIC_KEY = 'erp:public';

/**
 * The scopes a route needs; every one of them is required. An entry built with `anyScope(a, b)`
 * (`a|b`) is met by either scope.
 */
export const RequireScopes = (...scopes: string[]) =>
  applyDecorators(
    SetMetadata(SCOPES_KEY, scopes),
    ApiBearerAuth('api_key'),
    ApiExtension('x-required-scopes', scopes),
  );

/** A route reachable without a key (health checks, the API description). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
