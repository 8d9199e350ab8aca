import { Body, Controller, Inject, Param, Query, Req, Type } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { ReferenceListDefinition, ReferenceListService } from '../application/reference-list.service';
import { referenceListToken } from '../application/tokens';
import {
  LOCATIONS,
  PAYMENT_TERMS,
  PRICING_LEVELS,
  SALES_CHANNELS,
  UNITS_OF_MEASURE,
} from '../application/reference-lists';
import {
  CreateLocationDto,
  CreatePaymentTermDto,
  CreatePricingLevelDto,
  CreateSalesChannelDto,
  CreateUnitOfMeasureDto,
  LocationResponse,
  PaymentTermResponse,
  PricingLevelResponse,
  SalesChannelResponse,
  UnitOfMeasureResponse,
  UpdateLocationDto,
  UpdatePaymentTermDto,
  UpdatePricingLevelDto,
  UpdateSalesChannelDto,
  UpdateUnitOfMeasureDto,
} from './reference-list.dto';

interface ReferenceListRoutes {
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
function referenceListController(routes: ReferenceListRoutes): Type {
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

const route = (
  definition: ReferenceListRoutes['definition'],
  rest: Omit<ReferenceListRoutes, 'definition'>,
): ReferenceListRoutes => ({
  definition,
  ...rest,
});

export const REFERENCE_LIST_CONTROLLERS: Type[] = [
  route(LOCATIONS, {
    path: 'locations',
    scope: 'locations',
    tag: 'Locations',
    create: CreateLocationDto,
    update: UpdateLocationDto,
    response: LocationResponse,
  }),
  route(PAYMENT_TERMS, {
    path: 'payment-terms',
    scope: 'payment_terms',
    tag: 'Payment terms',
    create: CreatePaymentTermDto,
    update: UpdatePaymentTermDto,
    response: PaymentTermResponse,
  }),
  route(UNITS_OF_MEASURE, {
    path: 'units-of-measure',
    scope: 'units_of_measure',
    tag: 'Units of measure',
    create: CreateUnitOfMeasureDto,
    update: UpdateUnitOfMeasureDto,
    response: UnitOfMeasureResponse,
  }),
  route(SALES_CHANNELS, {
    path: 'sales-channels',
    scope: 'sales_channels',
    tag: 'Sales channels',
    create: CreateSalesChannelDto,
    update: UpdateSalesChannelDto,
    response: SalesChannelResponse,
  }),
  route(PRICING_LEVELS, {
    path: 'pricing-levels',
    scope: 'pricing_levels',
    tag: 'Pricing levels',
    create: CreatePricingLevelDto,
    update: UpdatePricingLevelDto,
    response: PricingLevelResponse,
  }),
].map(referenceListController);
