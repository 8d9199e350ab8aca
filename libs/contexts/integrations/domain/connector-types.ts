import { atMostCodePoints } from '#platform/domain/text-length';
import { IntegrationsError } from './integrations-error';

export const CONNECTOR_TYPES = ['storefront', 'marketplace1', 'marketplace2'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

export const CAPABILITIES = ['listing_sync', 'order_import', 'payout_import'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Which implementation talks to the remote side: `sandbox` (built in, no network) or `shopify`. */
export const ADAPTERS = ['sandbox', 'shopify'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export const PRICE_SOURCES = ['listing', 'list_price'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** Financial statuses of remote orders that may be imported (the remote platform's words). */
export const ORDER_STATUSES = ['paid', 'partially_paid', 'authorized', 'pending'] as const;
export type RemoteOrderStatus = (typeof ORDER_STATUSES)[number];

/** One setting or credential field a connector takes. */
export interface FieldSpec {
  name: string;
  type: 'string' | 'uuid' | 'url' | 'enum' | 'enum_list';
  required: boolean;
  description: string;
  values?: readonly string[];
  default?: unknown;
}

export interface ConnectorDefinition {
  type: ConnectorType;
  name: string;
  description: string;
  adapters: readonly AdapterName[];
  capabilities: readonly Capability[];
  settings: readonly FieldSpec[];
  credentials: readonly FieldSpec[];
  /** The journal source types of imported orders and of payouts. */
  source_types: { order_import: string; payout_import: string };
}

const COMMON_SETTINGS: readonly FieldSpec[] = [
  {
    name: 'default_location_id',
    type: 'uuid',
    required: false,
    description: 'Location imported orders ship from; null: the order has no location.',
    default: null,
  },
  {
    name: 'price_source',
    type: 'enum',
    required: false,
    values: PRICE_SOURCES,
    default: 'listing',
    description: "Price pushed with a listing: the listing's price, or the product's list price.",
  },
  {
    name: 'import_order_statuses',
    type: 'enum_list',
    required: false,
    values: ORDER_STATUSES,
    default: ['paid'],
    description: 'Remote financial statuses whose orders are imported; others are skipped.',
  },
  {
    name: 'clearing_account_id',
    type: 'uuid',
    required: false,
    description:
      'Ledger account holding what the channel owes until it pays out (debited by imports, credited by payouts); null: accounts receivable.',
    default: null,
  },
  {
    name: 'fee_account_id',
    type: 'uuid',
    required: false,
    description:
      'Expense account of the fees the channel keeps from a payout; required to import payouts with fees.',
    default: null,
  },
  {
    name: 'bank_account_id',
    type: 'uuid',
    required: false,
    description: 'Account the net payout lands in; null: the entity’s cash account.',
    default: null,
  },
];

const ADAPTER_SETTING = (adapters: readonly AdapterName[]): FieldSpec => ({
  name: 'adapter',
  type: 'enum',
  required: false,
  values: adapters,
  default: 'sandbox',
  description:
    '`sandbox` answers deterministically without a network; `shopify` calls the Shopify Admin REST API.',
});

const SHOP_URL: FieldSpec = {
  name: 'shop_url',
  type: 'url',
  required: false,
  description:
    'Base URL of the shop (https://<shop>.myshopify.com); required with the shopify adapter. Private-network and plain-http URLs are refused unless the service allows them.',
  default: null,
};

const SANDBOX_CREDENTIALS: FieldSpec = {
  name: 'api_key',
  type: 'string',
  required: false,
  description: 'Sandbox adapter: any value; `sandbox_auth_fail` fails the connection test.',
};

export const CONNECTORS: readonly ConnectorDefinition[] = [
  {
    type: 'storefront',
    name: 'Storefront',
    description: 'A web shop: pushes listings, imports its orders and payouts.',
    adapters: ['sandbox', 'shopify'],
    capabilities: ['listing_sync', 'order_import', 'payout_import'],
    settings: [ADAPTER_SETTING(['sandbox', 'shopify']), SHOP_URL, ...COMMON_SETTINGS],
    credentials: [
      {
        name: 'access_token',
        type: 'string',
        required: false,
        description: 'Shopify adapter: the Admin API access token of a custom app (shpat_...).',
      },
      SANDBOX_CREDENTIALS,
    ],
    source_types: { order_import: 'STOREFRONT_IMPORT', payout_import: 'STOREFRONT_PAYOUT' },
  },
  {
    type: 'marketplace1',
    name: 'Marketplace 1',
    description:
      'A marketplace: imports its orders and settlements; listings are managed on the marketplace.',
    adapters: ['sandbox'],
    capabilities: ['order_import', 'payout_import'],
    settings: [ADAPTER_SETTING(['sandbox']), ...COMMON_SETTINGS],
    credentials: [SANDBOX_CREDENTIALS],
    source_types: { order_import: 'MARKETPLACE1_IMPORT', payout_import: 'MARKETPLACE1_SETTLEMENT' },
  },
  {
    type: 'marketplace2',
    name: 'Marketplace 2',
    description: 'A marketplace: imports its orders and payouts; listings are managed on the marketplace.',
    adapters: ['sandbox'],
    capabilities: ['order_import', 'payout_import'],
    settings: [ADAPTER_SETTING(['sandbox']), ...COMMON_SETTINGS],
    credentials: [SANDBOX_CREDENTIALS],
    source_types: { order_import: 'MARKETPLACE2_IMPORT', payout_import: 'MARKETPLACE2_PAYOUT' },
  },
];

export const connectorOf = (type: ConnectorType): ConnectorDefinition =>
  CONNECTORS.find((c) => c.type === type)!;

/** An integration's settings with every default filled in. */
export interface IntegrationSettings {
  adapter: AdapterName;
  shop_url: string | null;
  default_location_id: string | null;
  price_source: PriceSource;
  import_order_statuses: RemoteOrderStatus[];
  clearing_account_id: string | null;
  fee_account_id: string | null;
  bank_account_id: string | null;
}

export type SettingsInput = Partial<IntegrationSettings>;

const invalid = (param: string, hint: string) => new IntegrationsError('parameter_invalid', { param, hint });

/** Merges settings changes into the current ones and checks them against the connector's rules. */
export function resolveSettings(
  type: ConnectorType,
  current: IntegrationSettings | undefined,
  changes: SettingsInput = {},
): IntegrationSettings {
  const definition = connectorOf(type);
  const base: IntegrationSettings = current ?? {
    adapter: 'sandbox',
    shop_url: null,
    default_location_id: null,
    price_source: 'listing',
    import_order_statuses: ['paid'],
    clearing_account_id: null,
    fee_account_id: null,
    bank_account_id: null,
  };
  const next: IntegrationSettings = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (!definition.adapters.includes(next.adapter))
    throw invalid(
      'settings.adapter',
      `The ${type} connector takes the adapter${definition.adapters.length > 1 ? 's' : ''} ${definition.adapters.join(', ')}.`,
    );
  if (next.shop_url !== null && next.adapter !== 'shopify')
    throw invalid('settings.shop_url', 'shop_url is a setting of the shopify adapter only.');
  if (next.adapter === 'shopify' && !next.shop_url)
    throw invalid(
      'settings.shop_url',
      'The shopify adapter needs settings.shop_url (https://<shop>.myshopify.com).',
    );
  next.import_order_statuses = [...new Set(next.import_order_statuses)];
  return next;
}

/** The credentials a connector with this adapter needs: the field names that must be non-empty. */
export function requiredCredentials(adapter: AdapterName): string[] {
  return adapter === 'shopify' ? ['access_token'] : [];
}

/** Checks credentials against the adapter's needs: known fields only, required ones present. */
export function checkCredentials(
  type: ConnectorType,
  adapter: AdapterName,
  credentials: Record<string, string>,
): void {
  const known = new Set(connectorOf(type).credentials.map((f) => f.name));
  for (const [name, value] of Object.entries(credentials)) {
    if (!known.has(name))
      throw new IntegrationsError('parameter_unknown', {
        param: `credentials.${name}`,
        hint: `The ${type} connector takes the credentials ${[...known].join(', ')}.`,
      });
    if (typeof value !== 'string' || value.length === 0 || !atMostCodePoints(value, 2000))
      throw invalid(
        `credentials.${name}`,
        `credentials.${name} must be a non-empty string of at most 2000 characters.`,
      );
  }
  for (const name of requiredCredentials(adapter))
    if (!credentials[name])
      throw new IntegrationsError('parameter_missing', {
        param: `credentials.${name}`,
        hint: `The ${adapter} adapter needs credentials.${name}.`,
      });
}

/**
 * The masked hint of stored credentials: the last 4 characters of the first credential value
 * (shorter values show nothing of themselves), e.g. `••••a1b2`.
 */
export function credentialsHint(credentials: Record<string, string>): string | null {
  const first = Object.values(credentials).find((v) => typeof v === 'string' && v.length > 0);
  if (first === undefined) return null;
  return first.length >= 12 ? `••••${first.slice(-4)}` : '••••';
}
