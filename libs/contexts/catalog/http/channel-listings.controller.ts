import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
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

  @Post()
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'List a product on a sales channel',
    description: 'One listing per product and channel (409 resource_conflict).',
  })
  @ApiResponse({ status: 201, type: ChannelListingResponse })
  create(@Body() body: CreateChannelListingDto) {
    return this.listings.create(body);
  }

  @Get()
  @RequireScopes('products:read')
  @ApiOperation({
    summary: 'List channel listings',
    description: 'Newest first, cursor-paginated; filters product_id, channel; expand[]=product.',
  })
  @ApiListResponse(ChannelListingResponse)
  list(@Query() query: ChannelListingListQueryDto, @Req() req: Request) {
    return this.listings.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Retrieve a channel listing' })
  @ApiResponse({ status: 200, type: ChannelListingResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.listings.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Update a channel listing' })
  @ApiResponse({ status: 200, type: ChannelListingResponse })
  update(@Param('id') id: string, @Body() body: UpdateChannelListingDto) {
    return this.listings.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('products:write')
  @ApiOperation({ summary: 'Delete a channel listing', description: 'Permanent.' })
  @ApiResponse({ status: 200, type: DeletedResponse })
  delete(@Param('id') id: string) {
    return this.listings.delete(id);
  }

  @Post(':id/sync')
  @HttpCode(202)
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Push a listing to its connector',
    description:
      'Storefront: 202 with `{ status: "queued", listing_id }`; a worker records the attempt on the listing. ' +
      'Marketplaces: 501 `connector_not_supported`. Inactive listings or archived products: 409 `invalid_state`.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'A replay returns the first 202 and queues nothing.',
  })
  @ApiResponse({ status: 202, type: SyncAcknowledgmentResponse })
  @ApiResponse({ status: 501, description: '`connector_not_supported` (type `not_implemented`).' })
  sync(@Param('id') id: string, @Body() _body: EmptyBodyDto) {
    return this.listings.requestSync(id);
  }
}
