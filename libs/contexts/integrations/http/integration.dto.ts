import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString, IsUrl, ValidateNested } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import {
  NullableField,
  NullableUuid,
  OptionalEnum,
  OptionalField,
  RequiredEnum,
  RequiredText,
  OptionalNonEmptyText,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRule, CrossFieldRules } from '#platform/http/cross-field-rules';
import {
  ADAPTERS,
  CAPABILITIES,
  CONNECTOR_TYPES,
  CONNECTORS,
  ORDER_STATUSES,
  PRICE_SOURCES,
  requiredCredentials,
} from '../domain/connector-types';
import type { AdapterName, ConnectorType, PriceSource, RemoteOrderStatus } from '../domain/connector-types';

/**
 * The adapter rules of the settings object (resolveSettings checks them on the merged settings:
 * on an update a field not sent keeps its stored value, on a create its default).
 */
@CrossFieldRules(
  {
    kind: 'when',
    field: 'adapter',
    is: ['shopify'],
    requires: ['shop_url'],
    stored: true,
    param: 'shop_url',
    sentence:
      'The shopify adapter needs shop_url (https://<shop>.myshopify.com); on an update, the stored shop_url counts when none is sent.',
  },
  {
    kind: 'when',
    field: 'adapter',
    is: ['sandbox'],
    allowed: { shop_url: [null] },
    stored: true,
    param: 'shop_url',
    sentence:
      'shop_url is a setting of the shopify adapter only: with the sandbox adapter (the default on a create, the stored adapter on an update when none is sent) it is null.',
  },
)
export class IntegrationSettingsDto {
  @OptionalEnum(ADAPTERS, {
    default: 'sandbox',
    description: '`sandbox` (no network) or `shopify` (storefront only).',
  })
  adapter?: AdapterName;

  @NullableField(
    {
      example: 'https://example-shop.myshopify.com',
      description: 'Base URL of the shop; required with the shopify adapter (https, public host).',
    },
    IsString(),
    MaxChars(500),
    IsUrl({ require_protocol: true, require_tld: false, protocols: ['http', 'https'] }),
  )
  shop_url?: string | null;

  @NullableUuid({ description: 'Location imported orders ship from.' }) default_location_id?: string | null;

  @OptionalEnum(PRICE_SOURCES, {
    default: 'listing',
    description:
      "Price pushed with a listing: the listing's price (falling back to the list price) or the product's list price.",
  })
  price_source?: PriceSource;

  @OptionalField(
    {
      type: [String],
      enum: ORDER_STATUSES,
      default: ['paid'],
      description: 'Remote financial statuses whose orders are imported.',
    },
    IsArray(),
    ArrayMaxSize(ORDER_STATUSES.length),
    IsIn(ORDER_STATUSES, { each: true }),
  )
  import_order_statuses?: RemoteOrderStatus[];

  @NullableUuid({
    description: 'Clearing account debited by imports and credited by payouts; null: receivables.',
  })
  clearing_account_id?: string | null;

  @NullableUuid({ description: 'Expense account of the channel’s fees on payouts.' }) fee_account_id?:
    string | null;

  @NullableUuid({ description: 'Account the net payout lands in; null: the cash account.' })
  bank_account_id?: string | null;
}

/** A credential's value, as checkCredentials takes it: a non-empty string of at most 2000 characters. */
const CREDENTIAL = { type: 'string' as const, minLength: 1, maxLength: 2000 };

const CREDENTIALS_DOC = {
  type: 'object' as const,
  properties: {
    access_token: {
      ...CREDENTIAL,
      description: 'Shopify adapter (storefront connector only): the Admin API access token.',
    },
    api_key: { ...CREDENTIAL, description: 'Sandbox adapter: any value (optional).' },
  },
  additionalProperties: false,
  writeOnly: true,
  example: { access_token: 'shpat_0123456789abcdef' },
  description:
    'Write-only: stored encrypted and never returned (`credentials_set` and `credentials_hint` say what is stored). Shopify: `access_token`; sandbox: `api_key` (optional).',
};

/** The connector types that take the sandbox adapter only (every one but the storefront). */
const SANDBOX_ONLY = CONNECTORS.filter((c) => !c.adapters.includes('shopify')).map((c) => c.type);
/** The connector types without the shopify adapter's credential. */
const NO_ACCESS_TOKEN = CONNECTORS.filter(
  (c) => !c.credentials.some((field) => field.name === 'access_token'),
).map((c) => c.type);

/** The shopify adapter's credential (checkCredentials): sent with the adapter, or stored. */
const SHOPIFY_CREDENTIALS = (stored: boolean): CrossFieldRule => ({
  kind: 'when',
  field: 'settings.adapter',
  is: ['shopify'],
  requires: requiredCredentials('shopify').map((name) => `credentials.${name}`),
  ...(stored ? { stored } : {}),
  param: `credentials.${requiredCredentials('shopify')[0]}`,
  sentence: stored
    ? `The shopify adapter needs credentials.${requiredCredentials('shopify').join(', credentials.')}: sent with the change of adapter, or already stored.`
    : `The shopify adapter needs credentials.${requiredCredentials('shopify').join(', credentials.')}.`,
});

/**
 * The rules of the connector `type` (resolveSettings and checkCredentials): on a create the type
 * sent; on an update (`stored`) the integration's type, which the request cannot change.
 */
const CONNECTOR_RULES = (stored: boolean): CrossFieldRule[] => {
  const whose = stored ? " (the integration's connector type, which an update keeps)" : '';
  return [
    {
      kind: 'when',
      field: 'type',
      is: SANDBOX_ONLY,
      allowed: { 'settings.adapter': ['sandbox'] },
      ...(stored ? { stored } : {}),
      param: 'settings.adapter',
      sentence: `The ${SANDBOX_ONLY.join(' and ')} connectors${whose} take the sandbox adapter only.`,
    },
    {
      kind: 'when',
      field: 'type',
      is: NO_ACCESS_TOKEN,
      forbids: ['credentials.access_token'],
      ...(stored ? { stored } : {}),
      param: 'credentials.access_token',
      sentence: `credentials.access_token is not a credential of the ${NO_ACCESS_TOKEN.join(' and ')} connectors${whose}.`,
    },
  ];
};

@CrossFieldRules(...CONNECTOR_RULES(false), SHOPIFY_CREDENTIALS(false))
export class CreateIntegrationDto {
  @RequiredEnum(CONNECTOR_TYPES, {
    example: 'storefront',
    description: 'A connector type of GET /integrations/connectors.',
  })
  type: ConnectorType;

  @RequiredText(200, { example: 'Web shop' }) name: string;

  @OptionalField(CREDENTIALS_DOC, IsObject()) credentials?: Record<string, string>;

  @OptionalField(
    { type: IntegrationSettingsDto },
    IsObject(),
    ValidateNested(),
    Type(() => IntegrationSettingsDto),
  )
  settings?: IntegrationSettingsDto;
}

@CrossFieldRules(...CONNECTOR_RULES(true), SHOPIFY_CREDENTIALS(true))
export class UpdateIntegrationDto {
  @OptionalNonEmptyText(200) name?: string;

  @OptionalField(
    { ...CREDENTIALS_DOC, description: `Replaces every stored credential. ${CREDENTIALS_DOC.description}` },
    IsObject(),
  )
  credentials?: Record<string, string>;

  @OptionalField(
    { type: IntegrationSettingsDto, description: 'Merged into the current settings.' },
    IsObject(),
    ValidateNested(),
    Type(() => IntegrationSettingsDto),
  )
  settings?: IntegrationSettingsDto;
}

export class IntegrationListQueryDto extends ListQueryDto {
  @OptionalEnum(CONNECTOR_TYPES) type?: ConnectorType;
  @OptionalEnum(['connected', 'disconnected']) status?: string;
}

export class IntegrationSettingsResponse {
  @ApiProperty({ enum: ADAPTERS }) adapter: string;
  @ApiProperty({ nullable: true, type: String }) shop_url: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) default_location_id: string | null;
  @ApiProperty({ enum: PRICE_SOURCES }) price_source: string;
  @ApiProperty({ type: [String], enum: ORDER_STATUSES }) import_order_statuses: string[];
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) clearing_account_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) fee_account_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) bank_account_id: string | null;
}

@ResourceResponse('integration')
export class IntegrationResponse {
  @ApiProperty({ enum: CONNECTOR_TYPES, example: 'storefront' }) type: string;
  @ApiProperty({ example: 'Web shop' }) name: string;
  @ApiProperty({
    enum: ['connected', 'disconnected'],
    description: 'DELETE disconnects: credentials erased, listings detached, the record and its runs kept.',
  })
  status: string;
  @ApiProperty({ type: IntegrationSettingsResponse }) settings: IntegrationSettingsResponse;
  @ApiProperty({ description: 'Whether credentials are stored (they are never returned).' })
  credentials_set: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '••••cdef',
    description: 'The last 4 characters of the first credential (12 characters or longer), masked.',
  })
  credentials_hint: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_import_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) disconnected_at: string | null;
}

class FieldSpecResponse {
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['string', 'uuid', 'url', 'enum', 'enum_list'] }) type: string;
  @ApiProperty() required: boolean;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String], required: false }) values?: string[];
}

class SourceTypesResponse {
  @ApiProperty({ example: 'STOREFRONT_IMPORT' }) order_import: string;
  @ApiProperty({ example: 'STOREFRONT_PAYOUT' }) payout_import: string;
}

export class ConnectorResponse {
  @ApiProperty({ enum: CONNECTOR_TYPES }) type: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String], enum: ADAPTERS }) adapters: string[];
  @ApiProperty({ type: [String], enum: CAPABILITIES }) capabilities: string[];
  @ApiProperty({ type: [FieldSpecResponse] }) settings: FieldSpecResponse[];
  @ApiProperty({ type: [FieldSpecResponse], description: 'Write-only fields of `credentials`.' })
  credentials: FieldSpecResponse[];
  @ApiProperty({ type: SourceTypesResponse, description: 'Journal source types of imports and payouts.' })
  source_types: SourceTypesResponse;
}

export class ConnectorListResponse {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [ConnectorResponse] }) data: ConnectorResponse[];
  @ApiProperty({ example: false }) has_more: boolean;
  @ApiProperty({ example: '/v1/integrations/connectors' }) url: string;
}

export class ConnectionTestResponse {
  @ApiProperty({ example: 'integration_test' }) object: string;
  @ApiProperty({ format: 'uuid' }) integration_id: string;
  @ApiProperty({ example: true }) ok: boolean;
  @ApiProperty({ enum: ADAPTERS }) adapter: string;
  @ApiProperty({ example: 'Example shop', description: 'The shop name the remote side answered.' })
  shop: string;
}

class RunCountsResponse {
  @ApiProperty() orders_imported: number;
  @ApiProperty({ description: 'Orders already imported or of a status not imported.' })
  orders_skipped: number;
  @ApiProperty() payouts_imported: number;
  @ApiProperty() payouts_skipped: number;
  @ApiProperty() listings_synced: number;
}

class RunErrorResponse {
  @ApiProperty({ nullable: true, type: String, description: 'The external order/payout id or listing id.' })
  external_id: string | null;
  @ApiProperty({ example: 'connector_unreachable' }) code: string;
  @ApiProperty() message: string;
}

@ResourceResponse('integration_run')
export class IntegrationRunResponse {
  @ApiProperty({ format: 'uuid' }) integration_id: string;
  @ApiProperty({ enum: ['listing_sync', 'order_import'] }) kind: string;
  @ApiProperty({ enum: ['manual', 'schedule', 'listing'] }) trigger: string;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed'] }) status: string;
  @ApiProperty({ type: RunCountsResponse }) counts: RunCountsResponse;
  @ApiProperty({ type: [RunErrorResponse] }) errors: RunErrorResponse[];
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finished_at: string | null;
}
