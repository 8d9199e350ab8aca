import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { actionsOf, StandardRoutes } from '#platform/http/standard-routes';
import { IntegrationsService } from '../application/integrations.service';
import { OrderImportService } from '../application/order-import.service';
import {
  ConnectionTestResponse,
  ConnectorListResponse,
  CreateIntegrationDto,
  IntegrationListQueryDto,
  IntegrationResponse,
  IntegrationRunResponse,
  UpdateIntegrationDto,
} from './integration.dto';

/** The connector types the service knows; a controller of its own so `connectors` is never read as an id. */
@ApiTags('Integrations')
@Controller('integrations/connectors')
@StandardRoutes({
  service: IntegrationsService,
  scope: 'integrations',
  model: ConnectorListResponse,
  actions: {
    connectors: [
      'List connector types',
      {
        collection: true,
        method: 'GET',
        path: '',
        url: true,
        description:
          'storefront, marketplace1, marketplace2: the adapters, capabilities (listing_sync, order_import, payout_import), settings and credential fields of each.',
      },
    ],
  },
})
export class ConnectorsController {}

@ApiTags('Integrations')
@ApiResource('integration')
@Controller('integrations')
@StandardRoutes({
  service: IntegrationsService,
  scope: 'integrations',
  model: IntegrationResponse,
  create: [
    CreateIntegrationDto,
    'Connect an integration',
    {
      description:
        'Credentials are write-only (encrypted at rest, never returned). Listings of the channel without an integration are attached to it.',
    },
  ],
  list: [
    IntegrationListQueryDto,
    'List integrations',
    { description: 'Newest first, cursor-paginated; filters type, status.', list: IntegrationResponse },
  ],
  retrieve: ['Retrieve an integration'],
  update: [
    UpdateIntegrationDto,
    'Update an integration',
    { description: 'name, settings (merged), credentials (replaced). 409 invalid_state once disconnected.' },
  ],
  delete: [
    'Disconnect an integration',
    {
      description:
        'Erases the credentials and detaches its listings (they keep their sync history); the integration and its runs stay readable with status `disconnected`.',
      returns: IntegrationResponse,
    },
  ],
  actions: {
    test: [
      'Test the connection',
      {
        description:
          'Calls the remote side with the stored credentials. 200 `ok`; 422 `connector_auth_failed`; 503 `connector_unreachable` or `connector_rate_limited` (`retry_after` seconds).',
        returns: ConnectionTestResponse,
      },
    ],
    ...actionsOf(OrderImportService, {
      importNow: [
        'Import orders and payouts now',
        {
          handler: 'importOrders',
          path: 'import-orders',
          description:
            'Pulls the remote orders and payouts since the last import: each new order becomes a sales order (posting the import entry), each new payout a payout entry; already imported ones are skipped. Answers the run.',
          returns: IntegrationRunResponse,
        },
      ],
    }),
    listRuns: [
      'List runs of an integration',
      {
        handler: 'runs',
        method: 'GET',
        query: ListQueryDto,
        description: 'Listing pushes and order imports, newest first, with their counts and errors.',
        list: IntegrationRunResponse,
      },
    ],
  },
})
export class IntegrationsController {}
