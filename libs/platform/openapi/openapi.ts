import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { ERROR_CATALOG } from '../errors/error-catalog';
import { addValidationConstraints } from './validation-constraints';

const ERROR_RESPONSES: Record<string, { description: string; example: string }> = {
  '400': {
    description: 'Invalid request (validation_error, expand_error, idempotency_error)',
    example: 'parameter_invalid',
  },
  '401': {
    description: 'Missing, malformed, unknown, expired or revoked API key',
    example: 'invalid_api_key',
  },
  '403': {
    description: 'Missing scope, foreign entity, or address outside the allowlist',
    example: 'insufficient_scope',
  },
  '404': { description: 'No such record for this entity and mode', example: 'not_found' },
  '429': { description: 'Per-key rate limit exceeded; see Retry-After', example: 'rate_limited' },
};

/** RFC 6750's challenge on every 401. */
const WWW_AUTHENTICATE_HEADER = {
  description:
    '`Bearer realm="api"`, plus `error="invalid_token"` when the request carried a credential (RFC 6750).',
  schema: { type: 'string' },
};

/** SPEC.md's envelope: one flat object; a code's extra fields (existing_id, ...) sit beside these. */
const errorEnvelopeSchema = {
  type: 'object',
  required: ['error', 'code', 'type'],
  properties: {
    error: { type: 'string', description: 'Machine-readable key (equal to code).' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
    type: { type: 'string', enum: [...new Set(Object.values(ERROR_CATALOG).map((e) => e.type))] },
    hint: { type: 'string' },
    param: { type: 'string', description: 'Offending parameter, e.g. items[0].quantity or expand[1].' },
    required: { type: 'string', description: 'The missing scope(s), on insufficient_scope.' },
    request_id: { type: 'string' },
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

/** Adds the error envelope to every operation and the deprecated entity-prefixed alias of each flat path. */
function decorate(document: OpenAPIObject): OpenAPIObject {
  document.components = document.components ?? {};
  document.components.schemas = {
    ...(document.components.schemas ?? {}),
    ErrorEnvelope: errorEnvelopeSchema,
  };
  const aliases: OpenAPIObject['paths'] = {};
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    const canonical = deprecatedAliasOf(path);
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      // A controller served at two paths (flat and entity-prefixed, or a deprecated spelling)
      // documents each operation at both; operation ids stay unique.
      if (operation.operationId && canonical) operation.operationId += '_deprecated_alias';
      else if (operation.operationId && operationIds.has(operation.operationId)) {
        operation.operationId += '_entity_prefixed';
      }
      if (operation.operationId) operationIds.add(operation.operationId);
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
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      for (const [status, { description, example }] of Object.entries(ERROR_RESPONSES)) {
        operation.responses[status] = operation.responses[status] ?? {
          description,
          ...(status === '401' ? { headers: { 'WWW-Authenticate': WWW_AUTHENTICATE_HEADER } } : {}),
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ErrorEnvelope' },
              example: {
                error: example,
                code: example,
                type: ERROR_CATALOG[example as keyof typeof ERROR_CATALOG].type,
                request_id: 'req_8fK2mQ',
              },
            },
          },
        };
      }
    }
    if (!canonical && !path.startsWith('/v1/entities/') && path.startsWith('/v1/')) {
      const aliasPath = path.replace(/^\/v1\//, '/v1/entities/{entity_id}/');
      const alias = JSON.parse(JSON.stringify(item)) as typeof item;
      for (const operation of Object.values(alias)) {
        if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
        operation.deprecated = true;
        operation.operationId = operation.operationId ? `${operation.operationId}_entity_alias` : undefined;
        operation.tags = [...(operation.tags ?? []), 'Entity-prefixed aliases'];
        operation.parameters = [
          { name: 'entity_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          ...(operation.parameters ?? []),
        ];
      }
      // A platform route served in both forms (webhook endpoints) documents its own prefixed path.
      if (!document.paths[aliasPath]) aliases[aliasPath] = alias;
    }
  }
  document.paths = { ...document.paths, ...aliases };
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

/** The declared parameter types of every controller method (bodies and queries among them). */
function routeParameterClasses(app: INestApplication): Set<unknown> {
  const classes = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = (wrapper.metatype as { prototype?: object } | null)?.prototype;
      if (!prototype) continue;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const types = Reflect.getMetadata('design:paramtypes', prototype, method) as unknown[] | undefined;
        for (const type of types ?? []) classes.add(type);
      }
    }
  }
  return classes;
}

/** Builds the OpenAPI 3 description of every route. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Business Operations API')
    .setDescription(
      'JSON-over-HTTP interface to the ERP: accounts, products, orders, inventory, fulfillment, purchasing, payments, accounting and signed webhooks. ' +
        'Authenticate with `Authorization: Bearer <API key>`. Errors use one envelope (ErrorEnvelope).',
    )
    .setVersion('1.0.0')
    .addServer(config.baseUrl.replace(/\/v1$/, ''), 'Main server (live and test keys)')
    .addServer(config.sandboxBaseUrl.replace(/\/v1$/, ''), 'Sandbox server (test keys only)')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'key_<mode>_ent_<code>_<random>' },
      'api_key',
    )
    .build();
  const document = SwaggerModule.createDocument(app, builder, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  return decorate(withoutPatchDefaults(addValidationConstraints(document, routeParameterClasses(app))));
}

/** Serves the description at /v1/openapi.json and an interactive reference at /docs. */
export function mountOpenApi(app: INestApplication, config: AppConfig): OpenAPIObject {
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    customSiteTitle: 'Business Operations API reference',
    useGlobalPrefix: false,
  });
  return document;
}
