import { Body, Controller, Inject, Param, Query, Req, Type } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';
import { AccountsService } from '../application/accounts.service';
import { AccountChildOperations } from '../application/account-children';
import { AddressResponse, CreateAddressDto, UpdateAddressDto } from './account-address.dto';
import { ContactResponse, CreateContactDto, UpdateContactDto } from './account-contact.dto';

interface ChildRoutes {
  /** Path under /accounts/{id}, e.g. `addresses`. */
  segment: string;
  resource: string;
  label: string;
  tag: string;
  events: string;
  pick: (accounts: AccountsService) => AccountChildOperations;
  create: Type;
  update: Type;
  response: Type;
}

/** The five routes of an account sub-resource (addresses, contacts), scoped accounts:read / accounts:write. */
function accountChildController(routes: ChildRoutes): Type {
  const { segment, label } = routes;
  const itemParam = `${label.replace(/\s+/g, '_')}_id`;

  @ApiTags(routes.tag)
  @ApiResource(routes.resource)
  @Controller(`accounts/:id/${segment}`)
  class AccountChildController {
    private readonly service: AccountChildOperations;

    constructor(@Inject(AccountsService) accounts: AccountsService) {
      this.service = routes.pick(accounts);
    }

    @Route('POST', '', {
      scopes: 'accounts:write',
      summary: `Add ${label === 'address' ? 'an' : 'a'} ${label} to an account`,
      description: `Emits ${routes.events}.added. 409 on a deleted account.`,
      returns: routes.response,
    })
    @ApiBody({ type: routes.create })
    create(@Param('id') id: string, @Body() body: Record<string, unknown>) {
      return this.service.create(id, body);
    }

    @Route('GET', '', {
      scopes: 'accounts:read',
      summary: `List the ${label} records of an account`,
      description: 'Newest first, cursor-paginated.',
    })
    list(@Param('id') id: string, @Query() query: ListQueryDto, @Req() req: Request) {
      return this.service.list(id, query, requestPath(req));
    }

    @Route('GET', `:${itemParam}`, {
      scopes: 'accounts:read',
      summary: `Retrieve a ${label} of an account`,
      returns: routes.response,
    })
    retrieve(@Param('id') id: string, @Param(itemParam) itemId: string, @Query() _query: RetrieveQueryDto) {
      return this.service.retrieve(id, itemId);
    }

    @Route('PATCH', `:${itemParam}`, {
      scopes: 'accounts:write',
      summary: `Update a ${label} of an account`,
      description: `Emits ${routes.events}.updated.`,
      returns: routes.response,
    })
    @ApiBody({ type: routes.update })
    update(@Param('id') id: string, @Param(itemParam) itemId: string, @Body() body: Record<string, unknown>) {
      return this.service.update(id, itemId, body);
    }

    @Route('DELETE', `:${itemParam}`, {
      scopes: 'accounts:write',
      summary: `Remove a ${label} from an account`,
      description: `Emits ${routes.events}.removed.`,
    })
    delete(@Param('id') id: string, @Param(itemParam) itemId: string) {
      return this.service.delete(id, itemId);
    }
  }

  Reflect.defineMetadata(
    'design:paramtypes',
    [String, routes.create],
    AccountChildController.prototype,
    'create',
  );
  Reflect.defineMetadata(
    'design:paramtypes',
    [String, String, routes.update],
    AccountChildController.prototype,
    'update',
  );
  Object.defineProperty(AccountChildController, 'name', {
    value: `Account${segment[0].toUpperCase()}${segment.slice(1)}Controller`,
  });
  return AccountChildController;
}

export const ACCOUNT_CHILD_CONTROLLERS: Type[] = [
  accountChildController({
    segment: 'addresses',
    resource: 'account_address',
    label: 'address',
    tag: 'Account addresses',
    events: 'account.address',
    pick: (a) => a.addresses,
    create: CreateAddressDto,
    update: UpdateAddressDto,
    response: AddressResponse,
  }),
  accountChildController({
    segment: 'contacts',
    resource: 'account_contact',
    label: 'contact',
    tag: 'Account contacts',
    events: 'account.contact',
    pick: (a) => a.contacts,
    create: CreateContactDto,
    update: UpdateContactDto,
    response: ContactResponse,
  }),
];
