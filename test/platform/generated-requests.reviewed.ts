/**
 * The reviewed exceptions of the generated-request test (generated-requests.e2e-spec.ts). Each
 * entry names operations as `METHOD /path/template` and says why. Keep them few and specific: an
 * entry of NO_SUCCESS whose operation now succeeds fails the test, and the run prints how often
 * each KNOWN_GAPS class was met.
 */

/** An answer a request valid by the description may get: status, and where given code and hint. */
export type Answer = [status: number, code?: string, hint?: string];

export interface Allowed {
  answers: Answer[];
  reason: string;
}

const STATE =
  'The live record is not in the state the action starts from (an earlier request of the run, or the seed, moved it on); 409 invalid_state is the documented answer.';
const GONE =
  'An earlier request of the run deleted or detached the record the path names (the minimal request succeeded first).';

/** Business answers to valid requests, per operation. Never a 400 for a reason the description does not state. */
export const ALLOWED: Record<string, Allowed> = {};

const allow = (operations: string[], answers: Answer[], reason: string) => {
  for (const operation of operations) {
    const entry = (ALLOWED[operation] ??= { answers: [], reason: '' });
    entry.answers.push(...answers);
    entry.reason = entry.reason ? `${entry.reason} ${reason}` : reason;
  }
};

allow(
  [
    'DELETE /v1/accounts/{id}',
    'DELETE /v1/integrations/{id}',
    'DELETE /v1/journal-entries/{id}',
    'DELETE /v1/orders/{id}',
    'DELETE /v1/orders/{id}/lines/{line_id}',
    'DELETE /v1/products/{id}',
    'PATCH /v1/inventory/serials/{id}',
    'PATCH /v1/journal-entries/{id}',
    'POST /v1/accounting/bank-transactions/{id}/match-deposit-to-invoices',
    'POST /v1/accounting/fiscal-years/{id}/close',
    'POST /v1/accounting/fiscal-years/{id}/reopen',
    'POST /v1/accounting/periods/{id}/close',
    'POST /v1/accounting/periods/{id}/reopen',
    'POST /v1/accounts/{id}/merge',
    'POST /v1/entities/{entity_id}/api_keys/{id}/rotate',
    'POST /v1/entities/{entity_id}/api_keys/{id}/revoke',
    'POST /v1/entities/{entity_id}/migration/cutover/freeze',
    'POST /v1/migration/cutover/freeze',
    'POST /v1/entities/{entity_id}/migration/cutover/unfreeze',
    'POST /v1/migration/cutover/unfreeze',
    'POST /v1/entities/{entity_id}/webhook_endpoints/{id}/deliveries/{delivery_id}/resend',
    'POST /v1/webhook_endpoints/{id}/deliveries/{delivery_id}/resend',
    'POST /v1/inventory/builds/{id}/post',
    'POST /v1/inventory/builds/{id}/void',
    'POST /v1/journal-entries/{id}/approve',
    'POST /v1/journal-entries/{id}/post',
    'POST /v1/journal-entries/{id}/reject',
    'POST /v1/journal-entries/{id}/void',
    'POST /v1/journal-entries/{id}/reverse',
    'POST /v1/orders/{id}/cancel',
    'POST /v1/orders/{id}/close',
    'POST /v1/orders/{id}/confirm',
    'POST /v1/orders/{id}/convert',
    'POST /v1/orders/{id}/customer-acknowledge-revision',
    'POST /v1/orders/{id}/send',
    'POST /v1/orders/{id}/lines',
    'PATCH /v1/orders/{id}',
    'PATCH /v1/orders/{id}/lines/{line_id}',
    'POST /v1/orders/{id}/payments',
    'POST /v1/orders/{id}/void',
    'POST /v1/packages/{id}/buy-label',
    'POST /v1/packages/{id}/deliver',
    'POST /v1/packages/{id}/pack',
    'POST /v1/packages/{id}/ship',
    'POST /v1/packages/{id}/void',
    'PATCH /v1/packages/{id}',
    'POST /v1/payments/{id}/refunds',
    'POST /v1/products/{id}/restore',
    'POST /v1/purchase-orders/{id}/cancel',
    'POST /v1/purchase-orders/{id}/confirm',
    'POST /v1/purchase-orders/{id}/receive',
    'POST /v1/returns/{id}/cancel',
    'POST /v1/returns/{id}/receive',
    'POST /v1/returns/{id}/refund',
    'POST /v1/vendor-bills/{id}/void',
    'POST /v1/vendor-bills/{id}/payments',
    'POST /v1/recurring-journal-entries/{id}/run',
    'POST /v1/fixed_assets/{id}/depreciate',
    'POST /v1/integrations/{id}/import-orders',
    'POST /v1/integrations/{id}/test',
    'POST /v1/channel_listings/{id}/sync',
    'POST /v1/entities/{entity_id}/webhook_endpoints/{id}/test',
    'POST /v1/webhook_endpoints/{id}/test',
    'POST /v1/entities/{entity_id}/webhook_endpoints/{id}/recover',
    'POST /v1/webhook_endpoints/{id}/recover',
  ],
  [[409, 'invalid_state']],
  STATE,
);
allow(
  [
    'POST /v1/webhook_endpoints',
    'POST /v1/entities/{entity_id}/webhook_endpoints',
    'PATCH /v1/webhook_endpoints/{id}',
    'PATCH /v1/entities/{entity_id}/webhook_endpoints/{id}',
  ],
  [[409, 'duplicate_url']],
  'The description’s example receiver URL is registered by the first request that sends it (both path forms name one entity): an active endpoint has its URL to itself (409 duplicate_url, documented).',
);
allow(
  [
    'DELETE /v1/accounts/{id}/addresses/{address_id}',
    'DELETE /v1/accounts/{id}/contacts/{contact_id}',
    'DELETE /v1/accounts/{id}/payment-methods/{pm_id}',
    'DELETE /v1/accounts/{id}/tags/{tag_id}',
    'DELETE /v1/channel_listings/{id}',
    'DELETE /v1/entities/{entity_id}/webhook_endpoints/{id}',
    'DELETE /v1/webhook_endpoints/{id}',
    'DELETE /v1/locations/{id}',
    'DELETE /v1/orders/{id}',
    'DELETE /v1/orders/{id}/tags/{tag_id}',
    'DELETE /v1/payment-terms/{id}',
    'DELETE /v1/pricing-levels/{id}',
    'DELETE /v1/pricing-policies/{id}',
    'DELETE /v1/product-categories/{id}',
    'DELETE /v1/product_categories/{id}',
    'DELETE /v1/products/{id}/components/{component_id}',
    'DELETE /v1/products/{id}/tags/{tag_id}',
    'DELETE /v1/products/{id}/vendors/{vendor_id}',
    'DELETE /v1/products/{product_id}/variants/{id}',
    'DELETE /v1/recurring-journal-entries/{id}',
    'DELETE /v1/sales-channels/{id}',
    'DELETE /v1/tags/{id}',
    'DELETE /v1/units-of-measure/{id}',
  ],
  [[404, 'not_found']],
  GONE,
);
allow(
  [
    'POST /v1/accounting/bank-transactions/{id}/match-deposit-to-invoices',
    'POST /v1/vendor-bills/{id}/payments',
  ],
  [[422, 'amount_exceeds_limit']],
  'A generated amount exceeds what the live invoice or bill still owes.',
);
allow(
  ['POST /v1/packages', 'POST /v1/returns'],
  [[422, 'quantity_exceeds_remaining']],
  'A generated quantity exceeds what the live order line has left to pack or return.',
);
allow(
  [
    'POST /v1/orders/{id}/lines/{line_id}/allocate-serials',
    'POST /v1/orders/{id}/lines/{line_id}/deallocate-serials',
  ],
  [
    [422, 'quantity_exceeds_remaining'],
    [422, 'serial_not_allocated'],
  ],
  'The line already holds as many serials as units, or a generated serial number is not one allocated to it.',
);
allow(
  ['POST /v1/packages/{id}/buy-label'],
  [[422, 'label_purchase_failed']],
  'A generated rate_object_id names no rate quoted for the package.',
);
allow(
  [
    'POST /v1/webhook_endpoints',
    'POST /v1/entities/{entity_id}/webhook_endpoints',
    'PATCH /v1/webhook_endpoints/{id}',
    'PATCH /v1/entities/{entity_id}/webhook_endpoints/{id}',
  ],
  [[400, 'parameter_invalid', "^url host '.*' does not resolve"]],
  'The receiver host of a generated URL must resolve (its description says so): the test app resolves the documentation hosts (example.com, example.org) only, and json-schema-faker makes up hosts of its own.',
);
allow(
  ['POST /v1/integrations', 'PATCH /v1/integrations/{id}'],
  [[400, 'parameter_invalid', "^shop_url host '.*' does not resolve"]],
  'The shop host of a generated URL must resolve (its description says so): the test app resolves the documentation hosts (example.com, *.myshopify.com) only, and json-schema-faker makes up hosts of its own.',
);
allow(
  ['POST /v1/orders/{id}/payments'],
  [[422, 'card_declined']],
  'The sandbox processor declines a generated card number it does not know (422 card_declined, documented).',
);
allow(
  ['POST /v1/channel_listings/{id}/sync'],
  [[501, 'connector_not_supported']],
  'Marketplace listings cannot be pushed yet (documented 501); the storefront listing syncs.',
);
allow(
  [
    'POST /v1/accounting/fiscal-years',
    'POST /v1/accounting/periods',
    'POST /v1/accounting/ledger-accounts',
    'PATCH /v1/accounting/ledger-accounts/{id}',
    'POST /v1/channel_listings',
  ],
  [[409, 'resource_conflict']],
  'The generated dates overlap the seeded fiscal years, or the code, control role or channel is already held by a live record.',
);
allow(
  [
    'POST /v1/accounting/ledger-accounts',
    'PATCH /v1/accounting/ledger-accounts/{id}',
    'POST /v1/accounts',
    'PATCH /v1/accounts/{id}',
    'POST /v1/inventory/adjustments',
    'POST /v1/inventory/transfers',
    'POST /v1/inventory/builds',
  ],
  [[400, 'parameter_invalid', '^No (other )?[a-z ]+ (of this product |for kit .* )?with id']],
  'A reference field without a live record of its kind (parent_id, payment_terms_id, variant_id, order_line_id) holds a generated uuid that names no record: 400 parameter_invalid naming the field.',
);
allow(
  [
    'POST /v1/products/{id}/components',
    'POST /v1/products/{id}/vendors',
    'POST /v1/orders/{id}/lines/{line_id}/allocate-serials',
    'POST /v1/orders/{id}/lines/{line_id}/deallocate-serials',
    'POST /v1/packages',
    'PATCH /v1/packages/{id}',
    'PATCH /v1/accounts/{id}/addresses/{address_id}',
    'PATCH /v1/accounts/{id}/contacts/{contact_id}',
    'POST /v1/orders',
    'POST /v1/purchase-orders',
    'POST /v1/purchase-orders/{id}/receive',
    'POST /v1/returns',
    'POST /v1/accounting/bank-transactions/{id}/match-deposit-to-invoices',
  ],
  [
    [
      400,
      'parameter_invalid',
      'already a (component|vendor)|is not serial-tracked|box_product_id names|one must exist|currency|has no line',
    ],
  ],
  'The body names live records that do not fit together (a component or vendor already there, a product that is not serial-tracked or not a box, the last default address, a currency other than the account’s, a line of another order): 400 parameter_invalid naming the field.',
);

allow(
  [
    'POST /v1/fixed_assets/{id}/depreciate',
    'POST /v1/fixed_assets/{id}/impairments',
    'POST /v1/fixed_assets/{id}/recoveries',
    'POST /v1/fixed_assets/{id}/revaluations',
    'POST /v1/vendor-bills/{id}/payments',
  ],
  [[422, 'period_closed']],
  'A generated date falls where the seeded books have no open accounting period (422 period_closed, documented).',
);
allow(
  ['POST /v1/fixed_assets/{id}/impairments', 'POST /v1/fixed_assets/{id}/recoveries'],
  [[422, 'amount_exceeds_limit']],
  'A generated amount exceeds the live asset’s net book value, or what it has impaired and not recovered.',
);
allow(
  [
    'POST /v1/journal-entries',
    'POST /v1/recurring-journal-entries',
    'PATCH /v1/recurring-journal-entries/{id}',
  ],
  [[422, 'unbalanced_entry']],
  'Generated lines whose debits and credits differ (422 unbalanced_entry, documented).',
);
allow(
  ['POST /v1/accounting/periods', 'POST /v1/returns/{id}/receive'],
  [[400, 'parameter_invalid', "^No fiscal year with id|^Package item '.*' is not an item of package"]],
  'A reference field without a live record of its kind (fiscal_year_id, package_item_id) holds a generated uuid that names no record: 400 parameter_invalid naming the field.',
);
allow(
  ['POST /v1/orders/{id}/payments'],
  [[422, 'amount_exceeds_limit']],
  'A generated amount exceeds what the live invoice still owes.',
);
allow(
  ['POST /v1/packages/{id}/ship'],
  [[400, 'parameter_invalid', '^This package has a bought label']],
  'The live package has a bought label (the flow that ships it buys one): carrier and tracking come from the label, so a generated carrier or tracking_number is refused naming the field. It depends on the package, not the request.',
);
allow(
  ['PATCH /v1/journal-entries/{id}'],
  [[422, 'unbalanced_entry']],
  'Generated lines of a draft entry whose debits and credits differ (422 unbalanced_entry, documented).',
);

/**
 * Operations that reach no 2xx in this run, with the reason. Each is work to do (a description gap
 * closed); the test fails when one succeeds, so the entry is then deleted. A state action reaches
 * its 2xx on a record made in its starting state first (flows of test/support/live-records.ts).
 */
export const NO_SUCCESS: Record<string, string> = {};

/**
 * Gaps between the description and the validators being closed (the description is to state every
 * constraint a validator enforces): the classes of the gaps-45 list. `kind` unset: both kinds.
 * Delete a class when its fix lands; the test then holds the line.
 */
export interface KnownGap {
  gap: string;
  kind?: 'valid' | 'invalid';
  operation: string;
  /** The field (for an invalid request, the one broken; for a valid one, the error's param). */
  param?: string;
  constraint?: string;
  status?: number;
  /** A regular expression the error's hint matches. */
  hint?: string;
}

export const KNOWN_GAPS: KnownGap[] = [];
