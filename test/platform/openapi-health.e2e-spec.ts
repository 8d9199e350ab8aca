import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';
import { API_VERSION } from '#platform/events/event-publisher';

interface Operation {
  deprecated?: boolean;
  security?: unknown;
  parameters: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content: Record<string, { schema: unknown; example?: unknown }> }>;
}
interface ErrorEnvelopeSchema {
  required: string[];
  properties: Record<string, { type: string; enum?: string[] }>;
}
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; license?: { name: string }; contact?: { url: string } };
  tags: { name: string; description: string }[];
  'x-entity-prefixed-aliases': unknown;
  servers: { url: string }[];
  components: { securitySchemes: Record<string, unknown>; schemas: { ErrorEnvelope: ErrorEnvelopeSchema } };
  paths: Record<string, Record<string, Operation>>;
}

describe('API description and probes', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_BASE_URL: 'https://api.example.test/v1' });
  });
  afterAll(() => app.close());

  describe('GET /v1/openapi.json', () => {
    let doc: OpenApiDoc;

    beforeAll(async () => {
      const res = await request(app.server).get('/v1/openapi.json').expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      doc = res.body;
    });

    it('is a public OpenAPI 3 document of the API version, with both servers and bearer security', () => {
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.info.version).toBe(API_VERSION);
      expect(doc.info.title).toBe('Business Operations API');
      const urls = doc.servers.map((s) => s.url);
      expect(urls).toHaveLength(2);
      expect(urls[0]).toBe('https://api.example.test');
      expect(urls[1]).toBe(app.config.sandboxBaseUrl.replace(/\/v1$/, ''));
      expect(doc.components.securitySchemes.api_key).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.paths['/v1/tags'].get.security).toEqual([{ api_key: [] }]);
    });

    it('describes the error envelope and the tag routes with their deprecated entity aliases', () => {
      const envelope = doc.components.schemas.ErrorEnvelope;
      expect(envelope.required).toEqual(['error', 'code', 'type', 'request_id']);
      for (const field of ['error', 'code', 'type', 'hint', 'param', 'required', 'request_id']) {
        expect(envelope.properties[field].type).toBe('string');
      }
      expect(envelope.properties.code.enum).toEqual(
        expect.arrayContaining(['invalid_expand', 'idempotency_key_in_use', 'precondition_failed']),
      );

      expect(Object.keys(doc.paths['/v1/tags']).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths['/v1/tags/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
      expect(doc.paths['/v1/tags'].post.deprecated).toBeFalsy();
      const error400 = (
        doc.components as unknown as { responses: Record<string, Operation['responses'][string]> }
      ).responses.Error400;
      expect(error400.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
      expect(doc.paths['/v1/tags'].get.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(['limit', 'starting_after', 'ending_before', 'include_count']),
      );

      // The entity-prefixed aliases are described once, not copied per operation.
      expect(doc.paths['/v1/entities/{entity_id}/tags']).toBeUndefined();
      expect(doc['x-entity-prefixed-aliases']).toMatchObject({
        deprecated: true,
        path: '/v1/entities/{entity_id}/{flat_path}',
      });
      // Only the deprecated snake-case spelling of a kebab-case resource and the entity-scoped
      // form of a route that also has a flat form (webhook endpoints, the cutover) are deprecated.
      expect(
        Object.entries(doc.paths)
          .filter(([path]) => !path.startsWith('/v1/product_categories'))
          .filter(
            ([path]) => !/^\/v1\/entities\/\{entity_id\}\/(webhook_endpoints|migration\/cutover)/.test(path),
          )
          .flatMap(([, item]) => Object.values(item))
          .some((o) => o.deprecated),
      ).toBe(false);
      // The operational probes are not part of the description.
      expect(doc.paths['/health']).toBeUndefined();
    });

    it('types every property, names every path parameter and gives every success response a schema', () => {
      const schemas = doc.components.schemas as unknown as Record<
        string,
        {
          properties?: Record<
            string,
            { type?: unknown; properties?: unknown; additionalProperties?: unknown; allOf?: unknown }
          >;
        }
      >;
      const untyped = Object.entries(schemas).flatMap(([name, schema]) =>
        Object.entries(schema.properties ?? {})
          .filter(
            ([, p]) =>
              p.type === 'object' && !p.properties && p.additionalProperties === undefined && !p.allOf,
          )
          .map(([key]) => `${name}.${key}`),
      );
      expect(untyped).toEqual([]);
      expect(schemas.CreateAccountDto.properties!.email).toMatchObject({ type: ['string', 'null'] });
      expect(schemas.CreateTagDto.properties!.color).toMatchObject({ type: ['string', 'null'] });
      expect(schemas.CreateAccountDto.properties!.credit_limit).toMatchObject({ type: ['number', 'null'] });

      const problems: string[] = [];
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          const declared = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
          for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
            if (!declared.includes(name)) problems.push(`${method} ${path}: ${name} undeclared`);
          }
          for (const [status, response] of Object.entries(operation.responses)) {
            // JSON, or (label files) the media types the route serves.
            const media = response.content?.['application/json'] ?? Object.values(response.content ?? {})[0];
            if (status.startsWith('2') && !media?.schema)
              problems.push(`${method} ${path} ${status}: no schema`);
            if (status.startsWith('2') && media?.example === undefined)
              problems.push(`${method} ${path} ${status}: no example`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(doc.paths['/v1/tags'].get.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/TagList',
      });
      expect(doc.paths['/v1/tags/{id}'].delete.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/DeletedObject',
      });
      expect(
        doc.paths['/v1/entities/{entity_id}/api_keys'].get.parameters.find((p) => p.name === 'entity_id'),
      ).toMatchObject({ in: 'path', required: true });
    });

    it('documents the error statuses, headers, tags, licence and the key scheme', () => {
      const post = doc.paths['/v1/tags'].post as Operation & {
        responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
      };
      for (const status of ['400', '401', '403', '409', '413', '415', '422', '423', '429', '500']) {
        expect(post.responses[status]).toEqual({ $ref: `#/components/responses/Error${status}` });
      }
      expect(Object.keys(post.responses['201'].headers ?? {})).toEqual(
        expect.arrayContaining(['Request-Id', 'RateLimit-Limit', 'Idempotent-Replayed']),
      );
      const patch = doc.paths['/v1/tags/{id}'].patch as unknown as {
        parameters: { $ref?: string }[];
        responses: object;
      };
      expect(patch.parameters.map((p) => p.$ref)).toEqual(
        expect.arrayContaining([
          '#/components/parameters/IdempotencyKey',
          '#/components/parameters/IfMatch',
          '#/components/parameters/FreezeToken',
        ]),
      );
      expect(patch.responses).toHaveProperty('412');
      // The freeze lets the migration tooling through: its operations say so and list no 423.
      const freeze = doc.paths['/v1/migration/cutover/freeze'].post as unknown as Record<string, unknown> & {
        parameters?: { $ref?: string }[];
        responses: object;
      };
      expect(freeze['x-allowed-while-frozen']).toBe(true);
      expect(freeze.responses).not.toHaveProperty('423');
      expect((freeze.parameters ?? []).map((p) => p.$ref)).not.toContain(
        '#/components/parameters/FreezeToken',
      );
      expect((post as unknown as Record<string, unknown>)['x-allowed-while-frozen']).toBeUndefined();
      const get = doc.paths['/v1/tags/{id}'].get as unknown as {
        parameters: { $ref?: string }[];
        responses: Record<string, { headers?: object }>;
      };
      expect(Object.keys(get.responses['200'].headers ?? {})).toContain('ETag');
      expect(get.responses).toHaveProperty('304');
      expect(get.parameters.map((p) => p.$ref)).toContain('#/components/parameters/IfNoneMatch');

      expect(doc.components.securitySchemes.api_key).not.toMatchObject({ bearerFormat: 'JWT' });
      expect(doc.info.license?.name).toBeTruthy();
      expect(doc.info.contact?.url).toMatch(/\/docs$/);
      expect(doc.tags.length).toBeGreaterThan(10);
      for (const tag of doc.tags) expect(tag.description).toBeTruthy();
    });

    it('states the limits the validation enforces (array sizes, lengths, bounds)', () => {
      const schemas = doc.components.schemas as Record<string, { properties: Record<string, object> }>;
      expect(schemas.CreateJournalEntryDto.properties.lines).toMatchObject({ minItems: 2, maxItems: 500 });
      expect(schemas.UpdateJournalEntryDto.properties.lines).toMatchObject({ minItems: 2, maxItems: 500 });
      expect(schemas.CreateLedgerAccountDto.properties.code).toMatchObject({ maxLength: 32 });
      // PartialType() update DTOs inherit the rules, and so do their schemas.
      expect(schemas.UpdateLedgerAccountDto.properties.code).toMatchObject({ maxLength: 32 });
      expect(Object.keys(schemas.UpdateOrderDto.properties).sort()).toEqual([
        'account_id',
        'lines',
        'metadata',
        'notes',
      ]);
      expect(schemas.UpdateOrderDto.properties.lines).toMatchObject({
        description: 'Replaces every line.',
        maxItems: 1000,
      });
      expect(schemas.ImpairmentDto.properties.amount).toMatchObject({ minimum: 0.0001 });
      expect(schemas.MatchDepositDto.properties.applications).toMatchObject({ minItems: 1, maxItems: 500 });
    });

    it('documents no defaults in PATCH bodies (an omitted field is left unchanged)', () => {
      const schemas = doc.components.schemas as Record<string, { properties: Record<string, object> }>;
      // A create states its defaults in words (a generator reads `default` as "always present").
      expect(schemas.CreatePricingPolicyDto.properties.active).not.toHaveProperty('default');
      expect(schemas.CreatePricingPolicyDto.properties.active).toMatchObject({
        description: expect.stringMatching(/Default: `true`\./),
      });
      expect(schemas.UpdatePricingPolicyDto.properties.active).not.toHaveProperty('default');
      expect(schemas.UpdatePaymentTermDto.properties.discount_days).not.toHaveProperty('default');
      expect(schemas.UpdateLedgerAccountDto.properties.postable).not.toHaveProperty('default');
    });

    it('is OpenAPI 3.1 that JSON Schema tools read as is: null among the types, never `nullable`', () => {
      expect(doc.openapi).toBe('3.1.0');
      const text = JSON.stringify(doc);
      expect(text).not.toContain('"nullable"');
      const schemas = doc.components.schemas as unknown as Record<
        string,
        { properties: Record<string, unknown> }
      >;
      // A nullable reference: the object or null.
      expect(schemas.ProductResponse.properties.weight).toMatchObject({
        anyOf: [{ $ref: '#/components/schemas/WeightResponse' }, { type: 'null' }],
      });
      // A nullable enum lists null.
      expect(schemas.JournalEntryResponse.properties.approval_status).toMatchObject({
        enum: expect.arrayContaining([null]),
      });
    });

    it('describes what expand[] puts in place, and the paths it accepts', () => {
      const schemas = doc.components.schemas as unknown as Record<
        string,
        { properties: Record<string, unknown> }
      >;
      expect(schemas.OrderResponse.properties.account).toMatchObject({
        anyOf: [
          { type: 'string', format: 'uuid' },
          { $ref: '#/components/schemas/AccountResponse' },
          { type: 'null' },
        ],
      });
      const expand = doc.paths['/v1/orders/{id}'].get.parameters.find(
        (p) => p.name === 'expand[]',
      ) as unknown as {
        schema: { items: { enum: string[] } };
      };
      expect(expand.schema.items.enum).toEqual(expect.arrayContaining(['account', 'lines.product']));
    });

    it('spells every shared request header one way', () => {
      const names = Object.values(doc.paths)
        .flatMap((item) => Object.values(item))
        .flatMap((operation) => operation.parameters)
        .filter((p) => p.in === 'header')
        .map((p) => p.name);
      expect(names.filter((name) => /^idempotency-key$/i.test(name))).toEqual([]);
      expect(doc.paths['/v1/journal-entries'].post.parameters).toEqual(
        expect.arrayContaining([{ $ref: '#/components/parameters/IdempotencyKey' }]),
      );
    });

    it('describes the body of every webhook event, data.object typed by its resource', () => {
      const webhooks = (doc as unknown as { webhooks: Record<string, { post: { requestBody: unknown } }> })
        .webhooks;
      expect(webhooks['order.confirmed'].post.requestBody).toEqual({
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEvent' } } },
      });
      const schemas = doc.components.schemas as unknown as Record<
        string,
        { properties: { type: { enum: string[] }; data: { properties: { object: unknown } } } }
      >;
      expect(schemas.OrderEvent.properties.type.enum).toContain('order.confirmed');
      expect(schemas.OrderEvent.properties.data.properties.object).toEqual({
        $ref: '#/components/schemas/OrderResponse',
      });
      expect(Object.keys(webhooks).length).toBeGreaterThan(100);
    });

    it('is a valid OpenAPI document', async () => {
      const copy = JSON.parse(JSON.stringify(doc));
      await expect(SwaggerParser.validate(copy)).resolves.toBeDefined();
    });
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await request(app.server).get('/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
    expect(res.text).toContain('Business Operations API reference');
  });

  it('answers /health without a key', async () => {
    const res = await request(app.server).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['request-id']).toMatch(/^req_/);
  });

  it('answers /ready without a key, with the database and the queue', async () => {
    const res = await request(app.server).get('/ready').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
  });
});
