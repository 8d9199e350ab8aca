import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

interface Operation {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
}

describe('OpenAPI description of the sales routes', () => {
  let app: TestApp;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };

  beforeAll(async () => {
    app = await startTestApp();
    doc = (await api(app).get('/v1/openapi.json').expect(200)).body;
  });
  afterAll(() => app.close());

  const bodySchema = (path: string, method: string) => {
    const ref = doc.paths[path][method].requestBody!.content['application/json'].schema.$ref;
    return doc.components.schemas[ref.split('/').pop()!];
  };

  it('documents the generated reference-list and sub-resource controllers with their concrete bodies', () => {
    expect(Object.keys(bodySchema('/v1/payment-terms', 'post').properties)).toEqual(
      expect.arrayContaining(['name', 'code', 'net_days', 'discount_percent', 'discount_days']),
    );
    expect(Object.keys(bodySchema('/v1/locations/{id}', 'patch').properties)).toEqual(
      expect.arrayContaining(['type', 'address']),
    );
    expect(Object.keys(bodySchema('/v1/accounts/{id}/addresses', 'post').properties)).toEqual(
      expect.arrayContaining(['type', 'line1', 'country', 'is_default']),
    );
    expect(Object.keys(bodySchema('/v1/accounts/{id}/payment-methods/{pm_id}', 'patch').properties)).toEqual([
      'is_default',
    ]);
    expect(doc.paths['/v1/units-of-measure'].post.operationId).toBe('UnitsOfMeasure_create');
    expect(doc.paths['/v1/accounts/{id}/contacts/{contact_id}'].delete.operationId).toBe(
      'AccountContacts_delete',
    );
    expect(doc.paths['/v1/accounts/{id}/merge'].post).toBeDefined();
    expect(doc.paths['/v1/pricing-policies/{id}'].delete).toBeDefined();
  });

  it('describes what the order routes check: purchase-order type, account_id unless a purchase order, uuid path ids', () => {
    const purchaseOrder = bodySchema('/v1/purchase-orders', 'post') as unknown as {
      properties: Record<string, { enum?: unknown[]; type?: unknown }>;
    };
    expect(purchaseOrder.properties.document_type.enum).toEqual(['purchase_order']);
    expect(purchaseOrder.properties.account_id.type).toEqual(['string', 'null']);
    const order = bodySchema('/v1/orders', 'post') as unknown as Record<string, unknown>;
    expect(order.if).toEqual({
      properties: { document_type: { enum: ['purchase_order'] } },
      required: ['document_type'],
    });
    expect(order.else).toEqual({
      required: ['account_id'],
      not: { properties: { account_id: { type: 'null' } } },
    });
    const parameters = (
      doc.paths['/v1/purchase-orders/{id}'].get as unknown as {
        parameters: { name: string; in: string; schema: unknown; description?: string }[];
      }
    ).parameters;
    const id = parameters.find((p) => p.in === 'path' && p.name === 'id')!;
    expect(id.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(id.description).toContain('404 `not_found`');
  });
});
