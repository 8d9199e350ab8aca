import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { ChannelListingsService } from '../application/channel-listings.service';
import {
  ChannelListingListQueryDto,
  ChannelListingResponse,
  CreateChannelListingDto,
  SyncAcknowledgmentResponse,
  UpdateChannelListingDto,
} from './channel-listing.dto';
import { EmptyBodyDto } from './catalog-validators';
import { DeletedResponse } from './product.dto';

@ApiTags('Channel listings')
@ApiResource('channel_listing')
@Controller('channel_listings')
export class ChannelListingsController {
  constructor(private readonly listings: ChannelListingsService) {}

  @Route('POST', '', {
    scopes: 'products:write',
    summary: 'List a product on a sales channel',
    description: 'One listing per product and channel (409 resource_conflict).',
    returns: ChannelListingResponse,
  })
  create(@Body() body: CreateChannelListingDto) {
    return this.listings.create(body);
  }

  @Route('GET', '', {
    scopes: 'products:read',
    summary: 'List channel listings',
    description: 'Newest first, cursor-paginated; filters product_id, channel; expand[]=product.',
    list: ChannelListingResponse,
  })
  list(@Query() query: ChannelListingListQueryDto, @Req() req: Request) {
    return this.listings.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'products:read',
    summary: 'Retrieve a channel listing',
    returns: ChannelListingResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.listings.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'products:write',
    summary: 'Update a channel listing',
    returns: ChannelListingResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateChannelListingDto) {
    return this.listings.update(id, body);
  }

  @Route('DELETE', ':id', {
    scopes: 'products:write',
    summary: 'Delete a channel listing',
    description: 'Permanent.',
    returns: DeletedResponse,
  })
  delete(@Param('id') id: string) {
    return this.listings.delete(id);
  }

  @Route('POST', ':id/sync', {
    scopes: 'products:write',
    summary: 'Push a listing to its connector',
    description:
      'Storefront: 202 with `{ status: "queued", listing_id }`; a worker records the attempt on the listing. ' +
      'Marketplaces: 501 `connector_not_supported`. Inactive listings or archived products: 409 `invalid_state`.',
    code: 202,
    response: [
      { status: 202, type: SyncAcknowledgmentResponse },
      { status: 501, description: '`connector_not_supported` (type `not_implemented`).' },
    ],
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'A replay returns the first 202 and queues nothing.',
  })
  sync(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.listings.requestSync(id);
  }
}
