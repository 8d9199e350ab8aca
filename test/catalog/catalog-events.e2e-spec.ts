import { randomUUID } from 'node:crypto';
import { expectEvent } from '../support/expect-event';
import { api } from '../support/http';
import { lastEventId } from '../support/event-counts';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The catalog's life-cycle events, each caused over HTTP and read back through the events API
 * with the fields this test sent (and, for changes, what they were before).
 */
describe('catalog events', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  const sku = () => `EV-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('a product created, renamed, archived and restored', async () => {
    const since = await lastEventId(app);
    const code = sku();
    const product = (await live.post('/v1/products').send({ sku: code, name: 'Event lamp' }).expect(201))
      .body;
    await expectEvent(app, 'product.created', { id: product.id, sku: code, name: 'Event lamp' }, { since });
    await live.patch(`/v1/products/${product.id}`).send({ name: 'Event lamp II' }).expect(200);
    await expectEvent(
      app,
      'product.updated',
      { id: product.id, name: 'Event lamp II' },
      { since, previous: { name: 'Event lamp' } },
    );
    await live.delete(`/v1/products/${product.id}`).expect(200);
    await expectEvent(
      app,
      'product.deleted',
      { id: product.id, status: 'archived' },
      { since, previous: { status: 'active' } },
    );
    await live.post(`/v1/products/${product.id}/restore`).expect(200);
    await expectEvent(
      app,
      'product.restored',
      { id: product.id, status: 'active', archived_at: null },
      { since, previous: { status: 'archived' } },
    );
  });

  it('a variant added, renamed and deleted', async () => {
    const since = await lastEventId(app);
    const product = (await live.post('/v1/products').send({ sku: sku(), name: 'Shirt' }).expect(201)).body;
    const code = sku();
    const variant = (
      await live
        .post(`/v1/products/${product.id}/variants`)
        .send({ sku: code, name: 'Shirt, blue' })
        .expect(201)
    ).body;
    await expectEvent(
      app,
      'product.variant.created',
      { id: variant.id, sku: code, name: 'Shirt, blue' },
      { since },
    );
    await live
      .patch(`/v1/products/${product.id}/variants/${variant.id}`)
      .send({ name: 'Shirt, navy' })
      .expect(200);
    await expectEvent(
      app,
      'product.variant.updated',
      { id: variant.id, name: 'Shirt, navy' },
      { since, previous: { name: 'Shirt, blue' } },
    );
    await live.delete(`/v1/products/${product.id}/variants/${variant.id}`).expect(200);
    await expectEvent(app, 'product.variant.deleted', { id: variant.id, sku: code }, { since });
  });

  it('a category created, renamed and deleted', async () => {
    const since = await lastEventId(app);
    const category = (await live.post('/v1/product-categories').send({ name: 'Event lighting' }).expect(201))
      .body;
    await expectEvent(
      app,
      'product.category.created',
      { id: category.id, name: 'Event lighting' },
      { since },
    );
    await live.patch(`/v1/product-categories/${category.id}`).send({ name: 'Event lamps' }).expect(200);
    await expectEvent(
      app,
      'product.category.updated',
      { id: category.id, name: 'Event lamps' },
      { since, previous: { name: 'Event lighting' } },
    );
    await live.delete(`/v1/product-categories/${category.id}`).expect(200);
    await expectEvent(app, 'product.category.deleted', { id: category.id, name: 'Event lamps' }, { since });
  });

  it('a tag created, renamed, attached to a product, detached and deleted', async () => {
    const since = await lastEventId(app);
    const tag = (await live.post('/v1/tags').send({ name: 'Event fragile', color: '#AA0000' }).expect(201))
      .body;
    await expectEvent(
      app,
      'setting.tag.created',
      { id: tag.id, name: 'Event fragile', color: '#aa0000' },
      { since },
    );
    await live.patch(`/v1/tags/${tag.id}`).send({ name: 'Event glass' }).expect(200);
    await expectEvent(
      app,
      'setting.tag.updated',
      { id: tag.id, name: 'Event glass' },
      { since, previous: { name: 'Event fragile' } },
    );
    const product = (await live.post('/v1/products').send({ sku: sku(), name: 'Vase' }).expect(201)).body;
    await live.post(`/v1/products/${product.id}/tags`).send({ tag_id: tag.id }).expect(200);
    await expectEvent(
      app,
      'product.tag.added',
      { id: product.id, tag_ids: [tag.id] },
      { since, previous: { tag_ids: [] } },
    );
    await live.delete(`/v1/products/${product.id}/tags/${tag.id}`).expect(200);
    await expectEvent(
      app,
      'product.tag.removed',
      { id: product.id, tag_ids: [] },
      { since, previous: { tag_ids: [tag.id] } },
    );
    await live.delete(`/v1/tags/${tag.id}`).expect(200);
    await expectEvent(app, 'setting.tag.deleted', { id: tag.id, name: 'Event glass' }, { since });
  });
});
