import { EmptyBodyDto } from '#platform/http/empty-body.dto';
import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { PlatformError } from '#platform/errors/domain-error';
import { EnqueuesJobs } from '#platform/queue/queue-availability';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ApiListResponse } from '#platform/http/list/api-list-response';
import { missingScopes } from '#platform/auth/scopes';
import { Route } from '#platform/http/route';
import { RequestContext } from '#platform/tenancy/request-context';
import { actionsOf, requestPath, StandardRoutes } from '#platform/http/standard-routes';
import { LabelsService } from '../application/labels.service';
import { PackagesService } from '../application/packages.service';
import { CreatePackage } from '../application/packages/create-package';
import { ShipPackage } from '../application/packages/ship-package';
import { VoidPackage } from '../application/packages/void-package';
import {
  BuyLabelDto,
  CreatePackageDto,
  CreatePackageQueryDto,
  PackageListQueryDto,
  PackageResponse,
  RateResponse,
  ShipmentNotificationResponse,
  ShipPackageDto,
  UpdatePackageDto,
} from './package.dto';

/** The scope that lets a key pass the revision gate (the scope `orders:revision_override`). */
export const REVISION_OVERRIDE_SCOPE = 'orders:revision_override';

/** 403 insufficient_scope naming the first scope the caller lacks. */
function requireScope(scope: string, why: string): void {
  const [missing] = missingScopes(RequestContext.caller().scopes, [scope]);
  if (missing)
    throw new PlatformError('insufficient_scope', {
      hint: `${why} needs the scope ${missing}.`,
      details: { required: missing },
    });
}

@ApiTags('Fulfillment')
@ApiResource('package')
@Controller('packages')
@StandardRoutes({
  service: PackagesService,
  scope: 'fulfillment',
  model: PackageResponse,
  list: [
    PackageListQueryDto,
    'List packages',
    {
      description: 'Newest first. Filters order_id, status, carrier, created_after, created_before.',
      list: PackageResponse,
    },
  ],
  retrieve: ['Retrieve a package', { description: 'With its items, label data and insurance summary.' }],
  update: [
    UpdatePackageDto,
    'Update a package',
    { description: 'While `packing` or `packed`; 409 invalid_state after.' },
  ],
  actionsAfter: 'label',
  actions: {
    pack: ['Mark a package packed', { body: EmptyBodyDto, description: '`packing` to `packed`.' }],
    ...actionsOf(ShipPackage, {
      ship: [
        'Ship a package',
        {
          input: ShipPackageDto,
          decorators: [EnqueuesJobs()],
          description:
            'From `packing`, `packed` or `labeled`. Without a bought label, carrier (or carrier_service) and tracking_number are given by hand. Stock and serials leave, FULFILLMENT is posted, a notification is queued, fulfillment.shipped is emitted; the order becomes fulfilled once every line shipped.',
        },
      ],
    }),
    deliver: [
      'Mark a package delivered',
      { body: EmptyBodyDto, description: '`shipped` to `delivered`; emits fulfillment.delivered.' },
    ],
    ...actionsOf(VoidPackage, {
      void: [
        'Void a package',
        {
          body: EmptyBodyDto,
          description:
            'Before shipping. Its units return to the order lines; a bought label is refunded through the carrier, or LABEL_REFUND_DENIED is posted when the carrier refuses. The carrier is asked outside any transaction: when it does not answer, the package stays void and the answer is 503 service_unavailable; voiding it again asks the carrier again.',
        },
      ],
    }),
  },
})
export class PackagesController {
  constructor(
    private readonly packages: PackagesService,
    private readonly createPackage: CreatePackage,
    private readonly labels: LabelsService,
  ) {}

  @Route('POST', '', {
    scopes: 'fulfillment:write',
    summary: 'Create a package',
    description:
      'A package of a confirmed sales order with its items (first status `packing`). With buy_label the label is bought with rate_object_id (status `labeled`); a refused purchase keeps the package and answers 422 label_purchase_failed with the package in the `package` field. fulfill_after_label (needs orders:write too) then ships it: stock and serials leave, FULFILLMENT is posted, a shipment notification is queued, fulfillment.shipped is emitted. 409 revision_unacknowledged for an order revised and not acknowledged, unless skip_revision_ack or ?override=true with orders:revision_override.',
    response: [
      { status: 201, type: PackageResponse },
      {
        status: 404,
        description: 'No order with that order_id for this entity and mode (not_found).',
      },
    ],
  })
  @EnqueuesJobs()
  create(@Body() body: CreatePackageDto, @Query() query: CreatePackageQueryDto) {
    if (body.fulfill_after_label) requireScope('orders:write', 'fulfill_after_label (automatic fulfillment)');
    const via =
      query.override === 'true' ? 'override_query' : body.skip_revision_ack ? 'skip_revision_ack' : null;
    if (via)
      requireScope(REVISION_OVERRIDE_SCOPE, via === 'override_query' ? 'override=true' : 'skip_revision_ack');
    return this.createPackage.execute(body, via);
  }

  @Route('GET', ':id/rates', {
    scopes: 'fulfillment:read',
    summary: 'Quote shipping rates',
    description:
      'Every carrier and service level for the package; each rate_object_id buys the label of this package, or of a new package of the same order created with buy_label, until expires_at (24 h by default).',
    response: {
      status: 409,
      description:
        '`invalid_state` naming the package status: rates are quoted only while the package is `packing` or `packed` (its label not yet bought).',
    },
  })
  @ApiListResponse(RateResponse, 'Cheapest service of each carrier and level; one page.')
  rates(@Param('id') id: string, @Req() req: Request) {
    return this.labels.quote(id, requestPath(req));
  }

  @Route('POST', ':id/buy-label', {
    scopes: 'fulfillment:write',
    summary: 'Buy the label of a package',
    description:
      'Status `labeled`. 422 label_purchase_failed (package in the body) for an unknown, expired or refused rate.',
    code: 200,
    returns: PackageResponse,
  })
  buyLabel(@Param('id') id: string, @Body() body: BuyLabelDto) {
    return this.labels.buy(id, body.rate_object_id, body.label_file_type ?? 'PDF');
  }

  @Route('GET', ':id/label', {
    scopes: 'fulfillment:read',
    summary: 'Download the label file',
    description:
      'PDF, PNG (4 x 6 in at 203 dpi) or ZPL II, with its content type. Without `Accept` (or with `*/*`) the label comes in the type it was bought in; `Accept: application/pdf`, `image/png` or `application/zpl` asks for that type, which a label drawn by the API (the sandbox carrier) can always be and a carrier-supplied file only when it was bought in it (406 not_acceptable otherwise).',
    response: {
      status: 200,
      description: 'The label file, in the type `Accept` asks for or else the type it was bought in.',
      content: Object.fromEntries(
        ['application/pdf', 'image/png', 'application/zpl'].map((type) => [
          type,
          { schema: { type: 'string', format: 'binary' }, example: '(label file bytes)' },
        ]),
      ),
    },
  })
  @ApiProduces('application/pdf', 'image/png', 'application/zpl')
  async label(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const file = await this.labels.file(id, req.headers.accept);
    const etag = `W/"${createHash('sha1').update(file.content).digest('base64url')}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Vary', 'Accept');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', `inline; filename="${file.fileName}"`);
    res.status(200).send(file.content);
  }

  @Route('GET', ':id/notifications', {
    scopes: 'fulfillment:read',
    summary: 'Shipment notifications of a package',
    description: 'Queued, then sent by the worker.',
  })
  @ApiListResponse(ShipmentNotificationResponse, 'Oldest first; one page holds them all.')
  notifications(@Param('id') id: string) {
    return this.packages.notificationsOf(id);
  }
}
