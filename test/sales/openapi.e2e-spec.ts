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
});
