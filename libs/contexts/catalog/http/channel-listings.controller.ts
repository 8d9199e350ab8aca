import { EmptyBodyDto } from '#platform/http/empty-body.dto';
import { Controller } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { EnqueuesJobs } from '#platform/queue/queue-availability';
import { StandardRoutes } from '#platform/http/standard-routes';
import { ChannelListingsService } from '../application/channel-listings.service';
import {
  ChannelListingListQueryDto,
  ChannelListingResponse,
  CreateChannelListingDto,
  SyncAcknowledgmentResponse,
  UpdateChannelListingDto,
} from './channel-listing.dto';
import { DeletedResponse } from './product.dto';

@ApiTags('Channel listings')
@ApiResource('channel_listing')
@Controller('channel_listings')
@StandardRoutes({
  service: ChannelListingsService,
  scope: 'products',
  model: ChannelListingResponse,
  create: [
    CreateChannelListingDto,
    'List a product on a sales channel',
    { description: 'One listing per product and channel (409 resource_conflict).' },
  ],
  list: [
    ChannelListingListQueryDto,
    'List channel listings',
    {
      description: 'Newest first, cursor-paginated; filters product_id, channel; expand[]=product.',
      list: ChannelListingResponse,
    },
  ],
  retrieve: ['Retrieve a channel listing'],
  update: [UpdateChannelListingDto, 'Update a channel listing'],
  delete: ['Delete a channel listing', { description: 'Permanent.', returns: DeletedResponse }],
  actions: {
    requestSync: [
      'Push a listing to its connector',
      {
        handler: 'sync',
        body: EmptyBodyDto,
        description:
          'Storefront: 202 with `{ status: "queued", listing_id }`; a worker records the attempt on the listing. ' +
          'Marketplaces: 501 `connector_not_supported`. Inactive listings or archived products: 409 `invalid_state`.',
        code: 202,
        returns: undefined,
        response: [
          { status: 202, type: SyncAcknowledgmentResponse },
          { status: 501, description: '`connector_not_supported` (type `not_implemented`).' },
        ],
        decorators: [
          EnqueuesJobs(),
          ApiHeader({
            name: 'Idempotency-Key',
            required: false,
            description: 'A replay returns the first 202 and queues nothing.',
          }),
        ],
      },
    ],
  },
})
export class ChannelListingsController {}
