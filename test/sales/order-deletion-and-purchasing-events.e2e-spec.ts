import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('orders: deleting drafts, and the purchasing events of purchase orders', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let accountId: string;
  let productId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    accountId = (await live.post('/v1/accounts').send({ name: 'Deletion customer' }).expect(201)).body.id;
    productId = app.seed.fixtures.product_id as string;
  });
  afterAll(() => app.close());

  const draft = async (documentType: string) =>
    (
      await live
        .post('/v1/orders')
        .send({
          document_type: documentType,
          account_id: documentType === 'purchase_order' ? undefined : accountId,
          lines: [{ product_id: productId, quantity: 2, unit_price: 5 }],
        })
        .expect(201)
    ).body as { id: string; lines: { id: string }[] };

  it('deletes a draft with its lines and tags and emits order.deleted with the order as it was', async () => {
    const order = await draft('sales_order');
    const tag = (
      await live
        .post('/v1/tags')
        .send({ name: `deletion-${Date.now()}` })
        .expect(201)
    ).body.id;
    await live.post(`/v1/orders/${order.id}/tags`).send({ tag_id: tag }).expect(200);

    const deleted = await live.delete(`/v1/orders/${order.id}`).expect(200);
    expect(deleted.body).toEqual({ id: order.id, object: 'order', deleted: true });

    expectError(await live.get(`/v1/orders/${order.id}`), 404, 'not_found');
    expectError(await live.delete(`/v1/orders/${order.id}`), 404, 'not_found');
    await expectEvent(app, 'order.deleted', {
      id: order.id,
      order_status: 'draft',
      tag_ids: [tag],
      lines: [expect.objectContaining({ id: order.lines[0].id })],
    });
    // The tag itself stays, attached to nothing.
    await live.get(`/v1/tags/${tag}`).expect(200);
  });

  it('answers 409 invalid_state for a confirmed order and leaves it unchanged', async () => {
    const order = await draft('sales_order');
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    const refused = await live.delete(`/v1/orders/${order.id}`);
    expectError(refused, 409, 'invalid_state');
    expect(refused.body.hint).toContain("'confirmed'");
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.order_status).toBe('confirmed');
    expect(await outbox(app).typesOf(order.id)).not.toContain('order.deleted');
  });

  it('lets the sales order of a deleted draft invoice be invoiced again', async () => {
    const order = await draft('sales_order');
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    const first = (await live.post(`/v1/orders/${order.id}/convert`).expect(200)).body.id;
    await expectEvent(app, 'order.converted', { id: order.id, converted_to_id: first });
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.converted_to_id).toBe(first);
    await live.delete(`/v1/orders/${first}`).expect(200);
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.converted_to_id).toBeNull();
    const again = await live.post(`/v1/orders/${order.id}/convert`).expect(200);
    expect(again.body).toMatchObject({ document_type: 'invoice', source_order_id: order.id });
  });

  it('needs orders:write', async () => {
    const order = await draft('quote');
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    expectError(await readOnly.delete(`/v1/orders/${order.id}`), 403, 'insufficient_scope', {
      required: 'orders:write',
    });
  });

  it('announces a purchase order in both the order and the purchasing families', async () => {
    const created = (
      await live
        .post('/v1/purchase-orders')
        .send({ lines: [{ product_id: productId, quantity: 4, unit_price: 3 }] })
        .expect(201)
    ).body as { id: string; lines: { id: string }[] };
    await live.patch(`/v1/orders/${created.id}`).send({ notes: 'call before delivery' }).expect(200);
    await live
      .post(`/v1/orders/${created.id}/lines`)
      .send({ description: 'Freight', quantity: 1, unit_price: 7 })
      .expect(201);
    await live.post(`/v1/purchase-orders/${created.id}/confirm`).expect(200);
    await live.post(`/v1/purchase-orders/${created.id}/cancel`).expect(200);

    expect(await outbox(app).typesOf(created.id)).toEqual([
      'order.created',
      'purchasing.purchase_order.created',
      'order.updated',
      'purchasing.purchase_order.updated',
      'order.line.added',
      'purchasing.purchase_order.updated',
      'order.confirmed',
      'purchasing.purchase_order.confirmed',
      'order.cancelled',
      'purchasing.purchase_order.cancelled',
    ]);
    // 4 × 3.00, then a 7.00 freight line: 12.00 when created, 19.00 once the line is added.
    await expectEvent(app, 'purchasing.purchase_order.created', {
      id: created.id,
      document_type: 'purchase_order',
      total: 12,
    });
    await expectEvent(
      app,
      'purchasing.purchase_order.updated',
      { id: created.id, document_type: 'purchase_order', notes: 'call before delivery' },
      { previous: { notes: null } },
    );
    await expectEvent(app, 'purchasing.purchase_order.confirmed', {
      id: created.id,
      order_status: 'confirmed',
      total: 19,
    });
    await expectEvent(app, 'purchasing.purchase_order.cancelled', {
      id: created.id,
      order_status: 'cancelled',
    });
  });

  it('keeps sales documents out of the purchasing family', async () => {
    const order = await draft('sales_order');
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    expect(await outbox(app).typesOf(order.id)).toEqual(['order.created', 'order.confirmed']);
  });

  it('deletes a draft purchase order with order.deleted only', async () => {
    const po = await draft('purchase_order');
    await live.delete(`/v1/orders/${po.id}`).expect(200);
    expect(await outbox(app).typesOf(po.id)).toEqual([
      'order.created',
      'purchasing.purchase_order.created',
      'order.deleted',
    ]);
  });
});
