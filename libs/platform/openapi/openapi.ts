import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { ERROR_CATALOG } from '../errors/error-catalog';
import { API_VERSION } from '../events/outbox-writer';
import { declaredExpansions, RESOURCE_KEY } from '../http/expand/expand-registry';
import { addExamples } from './examples';
import { describeExpansions } from './expansions';
import { toOpenApi31 } from './openapi-31';
import { describeRequestDefaults } from './request-schemas';
import { describeWebhooks } from './webhooks';
import { API_INTRODUCTION } from './introduction';
import {
  addErrorsAndHeaders,
  completeSuccessSchemas,
  declarePathParameters,
  operationsOf,
} from './operation-contract';
import { typeUntypedProperties } from './property-types';
import { addValidationConstraints } from './validation-constraints';

/** The error envelope: one flat object; a code's extra fields (existing_id, ...) sit beside these. */
const errorEnvelopeSchema = {
  type: 'object',
  description:
    'Every error answer. A code may add fields of its own at the same level (existing_id, package, ...).',
  required: ['error', 'code', 'type', 'request_id'],
  properties: {
    error: {
      type: 'string',
      description: 'Machine-readable key (equal to code).',
      example: 'parameter_invalid',
    },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOG), example: 'parameter_invalid' },
    type: {
      type: 'string',
      enum: [...new Set(Object.values(ERROR_CATALOG).map((e) => e.type))],
      example: 'validation_error',
    },
    hint: { type: 'string', example: 'limit must be an integer between 1 and 100.' },
    param: {
      type: 'string',
      description: 'Offending parameter, e.g. items[0].quantity or expand[1].',
      example: 'limit',
    },
    required: {
      type: 'string',
      description: 'The missing scope(s), on insufficient_scope.',
      example: 'orders:write',
    },
    request_id: { type: 'string', example: 'req_8fK2mQ4b1c9f0e2d4a6b8c7e' },
  },
  additionalProperties: true,
};

/** Snake-case spellings still served for multi-word resources, with their canonical kebab-case path. */
const DEPRECATED_PATH_SPELLINGS: Record<string, string> = {
  '/v1/product_categories': '/v1/product-categories',
};

/** The canonical path of a deprecated spelling, e.g. `/v1/product-categories/{id}`. */
function deprecatedAliasOf(path: string): string | undefined {
  for (const [old, canonical] of Object.entries(DEPRECATED_PATH_SPELLINGS)) {
    if (path === old || path.startsWith(`${old}/`)) return canonical + path.slice(old.length);
  }
  return undefined;
}

const ENTITY_SCOPED = '/v1/entities/{entity_id}/';

/**
 * A controller served at two paths (webhook endpoints and the cutover, flat and entity-scoped;
 * the snake-case spelling of product categories) documents each operation at both, with stable
 * operationIds: the flat, kebab-case form keeps the plain id (`WebhookEndpoints_create`); the
 * entity-scoped form of a route that also has a flat form is `<id>_entityScoped`, and a
 * deprecated spelling `<id>_deprecated_alias`, both marked deprecated. Swagger's `[0]`/`[1]`
 * index of multi-path controllers never reaches the description.
 */
function markPathSpellings(document: OpenAPIObject): void {
  const paths = new Set(Object.keys(document.paths));
  for (const { path, method, operation } of operationsOf(document)) {
    if (!operation.operationId) continue;
    const id = operation.operationId.replace(/\[\d+\]/g, '');
    let canonical = deprecatedAliasOf(path);
    let suffix = '';
    if (canonical) suffix = '_deprecated_alias';
    else if (path.startsWith(ENTITY_SCOPED)) {
      const flat = `/v1/${path.slice(ENTITY_SCOPED.length)}`;
      const flatOperation = (document.paths[flat] as Record<string, unknown> | undefined)?.[method];
      if (paths.has(flat) && flatOperation) {
        canonical = flat;
        suffix = '_entityScoped';
      }
    }
    operation.operationId = id + suffix;
    if (canonical) {
      operation.deprecated = true;
      operation.description = [
        `Deprecated alias of \`${canonical}\`, kept for existing clients.`,
        operation.description,
      ]
        .filter(Boolean)
        .join(' ');
    }
  }
}

/** RFC 6750's challenge on every 401. */
function describeBearerChallenge(document: OpenAPIObject): void {
  const unauthorized = document.components?.responses?.Error401 as
    { headers?: Record<string, unknown> } | undefined;
  if (!unauthorized) return;
  unauthorized.headers = {
    'WWW-Authenticate': {
      description:
        '`Bearer realm="api"`, plus `error="invalid_token"` when the request carried a credential (RFC 6750).',
      schema: { type: 'string' },
    },
    ...(unauthorized.headers ?? {}),
  };
}

/** What each tag groups, shown as the sections of the reference. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'API keys':
    'Keys of an entity: create, list, rotate (the old key stops at once) and revoke. The plaintext is shown only on create and rotate.',
  Accounting: 'Ledger accounts, fiscal years, periods and the accounting settings of the entity.',
  Accounts: 'Customers and vendors, with their addresses, contacts, tags and merges.',
  Activity: 'The log of every mutation made with the entity’s keys.',
  'Bank transactions': 'Imported bank lines and their matching to open invoices.',
  'Channel listings': 'A product’s presence on a sales channel, and its synchronisation.',
  Events: 'The events the API emitted (kept 30 days) and the catalog of event types.',
  'Fixed assets': 'Assets, depreciation runs, impairments, recoveries and revaluations.',
  'Journal entries': 'Manual and recurring journal entries, their approval, posting, reversal and voiding.',
  Migration: 'Imports from a previous system and the cutover freeze.',
  Orders: 'Sales orders, their lines and status transitions.',
  'Payment methods': 'Stored payment methods of an account.',
  Payments:
    'Payments against orders, refunds, and the reference lists (payment terms, units, channels, levels, locations).',
  'Pricing policies': 'Rules that set prices by account, product, category and period.',
  'Product categories': 'The category tree of the catalog.',
  Products: 'Products, their variants and tags.',
  Reports: 'Read-only reports such as the subledger reconciliation.',
  Tags: 'Labels attached to products, accounts and orders.',
  'Test helpers':
    'Test mode only: make time-dependent work observable now (the collections sweep as of a later business day).',
  'Vendor bills': 'Bills from vendors and their payments.',
  'Webhook endpoints': 'Signed event deliveries: endpoints, secrets, test sends, deliveries and resends.',
};

const ALIAS_DESCRIPTION =
  'Resources (accounts, orders, products, webhook endpoints, the migration cutover, ...) live at flat paths `/v1/<path>`, their canonical form. ' +
  'Events, event types, bulk imports and API keys exist only entity-scoped, at `/v1/entities/{entity_id}/events`, `.../event_types`, `.../migration/imports` and `.../api_keys` (there is no `/v1/events`). ' +
  'Every flat route is also served, deprecated, as `/v1/entities/{entity_id}/<path>` (the older entity-prefixed form): it behaves exactly like the flat operation, and an `entity_id` other than the API key’s own entity answers 403 `entity_isolation_violation`. ' +
  'Flat resources are documented once, in their flat form; webhook endpoints and the cutover, which older clients call entity-scoped, are also documented in that form, marked `deprecated`, with operationIds ending in `_entityScoped`. New integrations use the flat form.';

/** Tags with descriptions, in the order the reference shows them; a tag without a sentence gets one naming it. */
function describeTags(document: OpenAPIObject): void {
  const used = new Set<string>();
  for (const { operation } of operationsOf(document)) for (const tag of operation.tags ?? []) used.add(tag);
  document.tags = [...used].sort().map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.toLowerCase()}.`,
  }));
}

/** Operations without a description repeat their summary, so every operation has one. */
function describeOperations(document: OpenAPIObject): void {
  for (const { operation } of operationsOf(document)) {
    if (!operation.description && operation.summary) operation.description = `${operation.summary}.`;
  }
}

/**
 * The description's conventions: the flat error envelope, success schemas, every path
 * parameter, errors and headers per operation, tags and examples. The entity-prefixed aliases
 * are described once (x-entity-prefixed-aliases and the info text), never copied per operation.
 */
function decorate(document: OpenAPIObject, classes: Iterable<unknown>): OpenAPIObject {
  document.components = document.components ?? {};
  document.components.schemas = {
    ...(document.components.schemas ?? {}),
    ErrorEnvelope: errorEnvelopeSchema,
  };
  markPathSpellings(document);
  typeUntypedProperties(document, classes);
  completeSuccessSchemas(document);
  declarePathParameters(document);
  addErrorsAndHeaders(document, (operation) => !operation.security?.length);
  describeBearerChallenge(document);
  describeOperations(document);
  describeTags(document);
  addExamples(document);
  (document as unknown as Record<string, unknown>)['x-entity-prefixed-aliases'] = {
    deprecated: true,
    path: '/v1/entities/{entity_id}/{flat_path}',
    description: ALIAS_DESCRIPTION,
  };
  return document;
}

/**
 * A PATCH leaves absent fields unchanged, so its body has no defaults: update DTOs built with
 * PartialType() would otherwise repeat the create defaults (e.g. `active: true`), which tells
 * clients and generated SDKs that an omitted field is reset. Body schemas that a POST or PUT also
 * uses keep theirs.
 */
function withoutPatchDefaults(document: OpenAPIObject): OpenAPIObject {
  const bodySchema = (operation: unknown) =>
    (
      operation as { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } | undefined
    )?.requestBody?.content?.['application/json']?.schema?.$ref
      ?.split('/')
      .pop();
  const patched = new Set<string>();
  const created = new Set<string>();
  for (const item of Object.values(document.paths)) {
    const patch = bodySchema(item.patch);
    if (patch) patched.add(patch);
    for (const other of [item.post, item.put]) {
      const name = bodySchema(other);
      if (name) created.add(name);
    }
  }
  for (const name of patched) {
    if (created.has(name)) continue;
    const schema = document.components?.schemas?.[name] as
      { properties?: Record<string, { default?: unknown }> } | undefined;
    for (const property of Object.values(schema?.properties ?? {})) delete property.default;
  }
  return document;
}

/**
 * The declared parameter types of every controller method (bodies and queries among them), and
 * the resource (@ApiResource) each operation returns, by operationId.
 */
function scanControllers(app: INestApplication): {
  classes: Set<unknown>;
  resources: Map<string, string>;
  operationClasses: Map<string, unknown[]>;
} {
  const classes = new Set<unknown>();
  const operationClasses = new Map<string, unknown[]>();
  const resources = new Map<string, string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const metatype = wrapper.metatype as
        ((abstract new (...args: never[]) => unknown) & { prototype?: object }) | null;
      const prototype = metatype?.prototype;
      if (!metatype || !prototype) continue;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const types = Reflect.getMetadata('design:paramtypes', prototype, method) as unknown[] | undefined;
        for (const type of types ?? []) classes.add(type);
        if (types?.length) operationClasses.set(operationIdOf(metatype.name, method), types);
        const handler = (prototype as Record<string, unknown>)[method];
        if (method === 'constructor' || typeof handler !== 'function') continue;
        const resource = (Reflect.getMetadata(RESOURCE_KEY, handler) ??
          Reflect.getMetadata(RESOURCE_KEY, metatype)) as string | undefined;
        if (resource) resources.set(operationIdOf(metatype.name, method), resource);
      }
    }
  }
  return { classes, resources, operationClasses };
}

const operationIdOf = (controllerKey: string, methodKey: string) =>
  `${controllerKey.replace(/Controller$/, '')}_${methodKey}`;

/** Builds the OpenAPI 3.1 description of every route and of every webhook event. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const publicBase = config.baseUrl.replace(/\/v1$/, '');
  const builder = new DocumentBuilder()
    .setTitle('Business Operations API')
    .setDescription(`${API_INTRODUCTION}\n\n**Path forms.** ${ALIAS_DESCRIPTION}`)
    .setVersion(API_VERSION)
    .addServer(config.baseUrl.replace(/\/v1$/, ''), 'Main server (live and test keys)')
    .addServer(config.sandboxBaseUrl.replace(/\/v1$/, ''), 'Sandbox server (test keys only)')
    .setLicense('Proprietary: use is governed by your service agreement', `${publicBase}/docs`)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description:
          'An API key (not a JWT): `Authorization: Bearer key_<live|test>_ent_<entity code>_<random>`. A test key sees only test-mode records, a live key only live ones.',
      },
      'api_key',
    )
    .build();
  const document = SwaggerModule.createDocument(app, builder, {
    operationIdFactory: operationIdOf,
  });
  document.info.contact = { name: 'API operations', url: `${publicBase}/docs` };
  const { classes, resources, operationClasses } = scanControllers(app);
  const decorated = decorate(
    withoutPatchDefaults(addValidationConstraints(document, classes, operationClasses)),
    classes,
  );
  describeExpansions(decorated, declaredExpansions(), resources);
  describeWebhooks(decorated);
  describeRequestDefaults(decorated);
  return toOpenApi31(decorated);
}

/**
 * Serves the description at /v1/openapi.json and an interactive reference at /docs: `document`
 * when given (the one an identical app built before: the e2e tests build it once per run), else
 * the one built from the app's routes.
 */
export function mountOpenApi(
  app: INestApplication,
  config: AppConfig,
  document: OpenAPIObject = buildOpenApiDocument(app, config),
): OpenAPIObject {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    customSiteTitle: 'Business Operations API reference',
    useGlobalPrefix: false,
  });
  return document;
}
