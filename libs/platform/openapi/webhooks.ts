import type { OpenAPIObject } from '@nestjs/swagger';
import { EVENT_CATALOG, EVENT_FAMILIES } from '../events/event-catalog';
import { schemasByObject } from './expansions';

type Schema = Record<string, unknown>;

/**
 * The `object` of the resource each event carries in `data.object`, by the longest matching
 * prefix of the event type. Several names: the event carries one of them. A type no prefix
 * matches carries an object described only by its `object` field.
 */
const EVENT_OBJECTS: Record<string, string[]> = {
  account: ['account'],
  'account.address': ['account_address'],
  'account.contact': ['account_contact'],
  product: ['product'],
  'product.variant': ['product_variant'],
  'product.category': ['product_category'],
  'product.listing': ['channel_listing'],
  'product.pricing_policy': ['pricing_policy'],
  order: ['order'],
  invoice: ['order'],
  payment: ['payment'],
  'payment.refunded': ['payment', 'refund'],
  'payment.partially_refunded': ['payment', 'refund'],
  'payment.method': ['payment_method'],
  'inventory.adjusted': ['inventory_adjustment'],
  'inventory.received': ['purchase_order_receipt'],
  'inventory.transferred': ['inventory_transfer'],
  'inventory.low_stock': ['inventory_balance'],
  'inventory.out_of_stock': ['inventory_balance'],
  'inventory.back_in_stock': ['inventory_balance'],
  'inventory.serial': ['serial_number'],
  'purchasing.purchase_order': ['order'],
  'purchasing.purchase_order.received': ['order', 'purchase_order_receipt'],
  'purchasing.vendor_bill': ['vendor_bill'],
  fulfillment: ['package'],
  return: ['order', 'return_receipt'],
  'return.received': ['return_receipt'],
  'accounting.journal_entry': ['journal_entry'],
  'accounting.period': ['accounting_period'],
  'accounting.ledger_account': ['ledger_account'],
  'accounting.recurring_journal_entry': ['recurring_journal_entry'],
  'accounting.bank_transaction': ['bank_transaction'],
  asset: ['fixed_asset', 'fixed_asset_event', 'fixed_asset_depreciation'],
  'setting.tag': ['tag'],
  setting: ['location', 'payment_term', 'unit_of_measure', 'sales_channel', 'pricing_level'],
  'migration.frozen': ['entity_freeze_status'],
  'migration.unfrozen': ['entity_freeze_status'],
  'migration.import': ['import'],
  'webhook.endpoint': ['webhook_endpoint'],
  'webhook.delivery': ['webhook_delivery'],
};

/** An object this description does not name a schema for: its `object` says what it is. */
const ANY_RESOURCE: Schema = {
  type: 'object',
  description: 'The resource the event is about; `object` names its type.',
  properties: { object: { type: 'string', example: 'webhook_endpoint' } },
  additionalProperties: true,
};

const pascal = (text: string) =>
  text
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** The longest prefix of EVENT_OBJECTS that `type` starts with (by whole segments). */
function ruleOf(type: string): string | undefined {
  const segments = type.split('.');
  for (let n = segments.length; n > 0; n--) {
    const prefix = segments.slice(0, n).join('.');
    if (EVENT_OBJECTS[prefix]) return prefix;
  }
  return undefined;
}

/**
 * The payload of every event type as OpenAPI 3.1 `webhooks`: one `<Family...>Event` schema per
 * event family (and per sub-resource within a family), the envelope of GET /v1/events/{id} with
 * `type` listing the family's types and `data.object` the resource schema of the object the
 * event carries. A delivery is a POST of this body, signed in its Service-Signature header.
 */
export function describeWebhooks(document: OpenAPIObject): void {
  const schemas = document.components!.schemas! as Record<string, Schema>;
  const envelope = schemas.EventResponse;
  if (!envelope) return;
  const byObject = schemasByObject(schemas);
  const groups = new Map<string, { types: string[]; objects: string[] }>();
  const ordered = [...EVENT_CATALOG].sort(
    (a, b) => EVENT_FAMILIES.indexOf(a.family) - EVENT_FAMILIES.indexOf(b.family),
  );
  for (const definition of ordered) {
    const rule = ruleOf(definition.type);
    const name = `${pascal(rule ?? definition.family)}Event`;
    const group = groups.get(name) ?? { types: [], objects: rule ? EVENT_OBJECTS[rule] : [] };
    group.types.push(definition.type);
    groups.set(name, group);
  }
  const webhooks: Record<string, unknown> = {};
  for (const [name, { types, objects }] of groups) {
    const refs = objects
      .map((object) => byObject.get(object))
      .filter((schema): schema is string => !!schema)
      .map((schema) => ({ $ref: `#/components/schemas/${schema}` }));
    const object: Schema = refs.length === 0 ? ANY_RESOURCE : refs.length === 1 ? refs[0] : { anyOf: refs };
    const properties = { ...(envelope.properties as Record<string, Schema>) };
    properties.type = { type: 'string', enum: types, example: types[0] };
    properties.data = {
      type: 'object',
      required: ['object'],
      description:
        '`object`: the full resource when the event happened; `previous_attributes`: the changed fields’ earlier values, on updates.',
      properties: {
        object,
        previous_attributes: {
          type: 'object',
          additionalProperties: true,
          description: 'The earlier values of the fields this change set.',
        },
      },
    };
    schemas[name] = {
      type: 'object',
      description: `The body of a delivery of ${types.map((t) => `\`${t}\``).join(', ')}.`,
      required: envelope.required,
      properties,
    };
  }
  for (const definition of ordered) {
    const rule = ruleOf(definition.type);
    const name = `${pascal(rule ?? definition.family)}Event`;
    webhooks[definition.type] = {
      post: {
        operationId: `webhook_${definition.type.replace(/\./g, '_')}`,
        summary: definition.type,
        description: `${definition.description} Sent to every enabled endpoint subscribed to \`${definition.type}\`, \`${definition.family}.*\` or \`*\`; verify the Service-Signature header before trusting the body. Answer any 2xx to acknowledge; any other status, a timeout or a connection error is retried.`,
        tags: ['Webhook events'],
        // Not an API-key call: the receiver checks the Service-Signature header instead.
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    };
  }
  (document as unknown as { webhooks: Record<string, unknown> }).webhooks = webhooks;
  document.tags = [
    ...(document.tags ?? []).filter((tag) => tag.name !== 'Webhook events'),
    {
      name: 'Webhook events',
      description:
        'What your webhook endpoint receives: one POST per event, its body signed in the Service-Signature header.',
    },
  ];
}
