import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put, SetMetadata, Type } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiResponseOptions } from '@nestjs/swagger';
import { RequireScopes } from '../auth/decorators';
import { ApiListResponse } from './list/api-list-response';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const MAPPINGS: Record<RouteMethod, (path?: string | string[]) => MethodDecorator> = {
  GET: Get,
  POST: Post,
  PUT: Put,
  PATCH: Patch,
  DELETE: Delete,
};

export interface RouteOptions {
  /** The scopes the route needs, as `RequireScopes` takes them. */
  scopes: string | readonly string[];
  /** The OpenAPI operation's summary and optional description. */
  summary: string;
  description?: string;
  /** The success status when it is not the method's default (`@HttpCode`). */
  code?: number;
  /** The success response's body: documented with the route's status (`code`, else 201 for POST, 200). */
  returns?: Type;
  /** Documented responses beyond `returns`, in order. */
  response?: ApiResponseOptions | readonly ApiResponseOptions[];
  /** Documents the 200 as the list envelope around this model. */
  list?: Type;
  /**
   * Top-level fields of the success body that carry a secret shown once (a plaintext key or
   * signing secret). An idempotent replay's stored copy keeps them only sealed with SECRETS_KEY.
   */
  secretFields?: readonly string[];
}

/** Metadata key of a route's `secretFields` (read by the idempotency pipeline). */
export const SECRET_FIELDS_KEY = 'api:secret-fields';

/**
 * One route handler: its method and path, the scopes it requires, its OpenAPI operation and
 * responses. Route-specific decorators (`@ApiQuery`, `@ApiBody`, `@Header`, ...) stack below it.
 */
export function Route(method: RouteMethod, path: string, options: RouteOptions): MethodDecorator {
  const scopes = typeof options.scopes === 'string' ? [options.scopes] : [...options.scopes];
  const status = options.code ?? (method === 'POST' ? 201 : 200);
  const responses: ApiResponseOptions[] = [
    ...(options.returns === undefined ? [] : [{ status, type: options.returns }]),
    ...(options.response === undefined
      ? []
      : Array.isArray(options.response)
        ? (options.response as readonly ApiResponseOptions[])
        : [options.response as ApiResponseOptions]),
  ];
  const operation =
    options.description === undefined
      ? { summary: options.summary }
      : { summary: options.summary, description: options.description };
  // Listed top to bottom as they would be stacked on the method; applied bottom-up like a stack.
  const stacked: MethodDecorator[] = [
    MAPPINGS[method](path),
    ...(options.code === undefined ? [] : [HttpCode(options.code)]),
    RequireScopes(...scopes),
    ApiOperation(operation),
    ...responses.map((response) => ApiResponse(response)),
    ...(options.list === undefined ? [] : [ApiListResponse(options.list)]),
    ...(options.secretFields === undefined
      ? []
      : [SetMetadata(SECRET_FIELDS_KEY, [...options.secretFields])]),
  ];
  return applyDecorators(...stacked.reverse()) as MethodDecorator;
}
