import { Body, Controller, Inject, Param, Query, Req, Type } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '../http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../http/list/list-query.dto';
import { Route } from '../http/route';
import { requestPath } from '../http/standard-routes';
import { ReferenceListDefinition, ReferenceListService, referenceListToken } from './reference-list.service';

export interface ReferenceListRoutes {
  definition: Pick<ReferenceListDefinition, 'object' | 'label'>;
  /** Path segment, e.g. `payment-terms`. */
  path: string;
  /** Scope prefix, e.g. `payment_terms`. */
  scope: string;
  tag: string;
  create: Type;
  update: Type;
  response: Type;
}

/**
 * Builds the five-route controller of one reference list. The body DTO types are set as the
 * handlers' parameter types so the global validation pipe and OpenAPI see the concrete classes.
 */
export function referenceListController(routes: ReferenceListRoutes): Type {
  const { definition, path, scope, tag } = routes;
  const read = `${scope}:read`;
  const write = `${scope}:write`;
  const label = definition.label;

  @ApiTags(tag)
  @ApiResource(definition.object)
  @Controller(path)
  class ReferenceListController {
    constructor(@Inject(referenceListToken(definition.object)) readonly service: ReferenceListService) {}

    @Route('POST', '', {
      scopes: write,
      summary: `Create a ${label}`,
      description: `Emits setting.created. A duplicate code is 409 with param code.`,
      returns: routes.response,
    })
    @ApiBody({ type: routes.create })
    create(@Body() body: Record<string, unknown>) {
      return this.service.create(body);
    }

    @Route('GET', '', {
      scopes: read,
      summary: `List ${label} records`,
      description: 'Newest first, cursor-paginated.',
    })
    list(@Query() query: ListQueryDto, @Req() req: Request) {
      return this.service.list(query, requestPath(req));
    }

    @Route('GET', ':id', { scopes: read, summary: `Retrieve a ${label}`, returns: routes.response })
    retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
      return this.service.retrieve(id);
    }

    @Route('PATCH', ':id', {
      scopes: write,
      summary: `Update a ${label}`,
      description: 'Emits setting.updated with previous_attributes.',
      returns: routes.response,
    })
    @ApiBody({ type: routes.update })
    update(@Param('id') id: string, @Body() body: Record<string, unknown>) {
      return this.service.update(id, body);
    }

    @Route('DELETE', ':id', {
      scopes: write,
      summary: `Delete a ${label}`,
      description: 'Permanent. 409 while other records still reference it. Emits setting.deleted.',
    })
    delete(@Param('id') id: string) {
      return this.service.delete(id);
    }
  }

  Reflect.defineMetadata('design:paramtypes', [routes.create], ReferenceListController.prototype, 'create');
  Reflect.defineMetadata(
    'design:paramtypes',
    [String, routes.update],
    ReferenceListController.prototype,
    'update',
  );
  const className = `${tag.replace(/(^|\s+)(\w)/g, (_, __, c: string) => c.toUpperCase())}Controller`;
  Object.defineProperty(ReferenceListController, 'name', { value: className });
  return ReferenceListController;
}
