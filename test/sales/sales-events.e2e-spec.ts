import { expectEvent } from '../support/expect-event';
import { lastEventId } from '../support/event-counts';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The sales documents' events (orders, their lines, invoices, payments), each caused over HTTP
 * and read back through the events API with amounts this test computes itself: a line of
 * 2 × 25.00 with 10 % tax is 50.00 + 5.00 = 55.00.
 */
describe('sales events', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let accountId: string;
  const line = { description: 'Widget', quantity: 2, unit_price: 25, tax_rate: 10 };

  /** A draft invoice of the one line (55.00). */
  const draftInvoice = async () =>
    (
      await live
        .post('/v1/orders')
        .send({ document_type: 'invoice', account_id: accountId, lines: [line] })
        .expect(201)
    ).body as { id: string };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    accountId = (await live.post('/v1/accounts').send({ name: 'Event buyer' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  it('a sales order created, its lines added, changed and removed, edited, confirmed and cancelled', async () => {
    const since = await lastEventId(app);
    const order = (
      await live
        .post('/v1/orders')
        .send({ account_id: accountId, lines: [line] })
        .expect(201)
    ).body;
    await expectEvent(app, 'order.created', { id: order.id, account_id: accountId, total: 55 }, { since });
    const added = (
      await live
        .post(`/v1/orders/${order.id}/lines`)
        .send({ description: 'Bolt', quantity: 4, unit_price: 1.5 })
        .expect(201)
    ).body;
    const boltLine = (added.lines as { id: string; description: string }[]).find(
      (l) => l.description === 'Bolt',
    )!;
    await expectEvent(app, 'order.line.added', { id: order.id, total: 61 }, { since });
    await live.patch(`/v1/orders/${order.id}/lines/${boltLine.id}`).send({ quantity: 10 }).expect(200);
    await expectEvent(app, 'order.line.updated', { id: order.id, total: 70 }, { since });
    await live.delete(`/v1/orders/${order.id}/lines/${boltLine.id}`).expect(200);
    await expectEvent(app, 'order.line.removed', { id: order.id, total: 55 }, { since });
    await live.patch(`/v1/orders/${order.id}`).send({ notes: 'Leave at the door' }).expect(200);
    await expectEvent(app, 'order.updated', { id: order.id, notes: 'Leave at the door' }, { since });
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    await expectEvent(app, 'order.confirmed', { id: order.id, order_status: 'confirmed' }, { since });
    await live.post(`/v1/orders/${order.id}/cancel`).expect(200);
    await expectEvent(app, 'order.cancelled', { id: order.id, order_status: 'cancelled' }, { since });
  });

  it('an invoice created, issued, paid in two parts, and its payment refunded in two parts', async () => {
    const since = await lastEventId(app);
    const draft = await draftInvoice();
    await expectEvent(app, 'invoice.created', { id: draft.id, total: 55 }, { since });
    await live.post(`/v1/orders/${draft.id}/confirm`).expect(200);
    await expectEvent(app, 'invoice.finalized', { id: draft.id, amount_due: 55 }, { since });
    const first = (
      await live.post(`/v1/orders/${draft.id}/payments`).send({ method: 'cash', amount: 20 }).expect(201)
    ).body;
    await expectEvent(app, 'payment.succeeded', { id: first.id, amount: 20 }, { since });
    await expectEvent(
      app,
      'invoice.partially_paid',
      { id: draft.id, amount_paid: 20, amount_due: 35 },
      { since },
    );
    const second = (
      await live.post(`/v1/orders/${draft.id}/payments`).send({ method: 'cash', amount: 35 }).expect(201)
    ).body;
    await expectEvent(app, 'invoice.paid', { id: draft.id, amount_paid: 55, amount_due: 0 }, { since });
    await live.post(`/v1/payments/${second.id}/refunds`).send({ amount: 10 }).expect(201);
    await expectEvent(
      app,
      'payment.partially_refunded',
      { id: second.id, amount_refunded: 10 },
      { since, previous: { amount_refunded: 0 } },
    );
    await live.post(`/v1/payments/${second.id}/refunds`).send({ amount: 25 }).expect(201);
    await expectEvent(
      app,
      'payment.refunded',
      { id: second.id, amount_refunded: 35 },
      { since, previous: { amount_refunded: 10 } },
    );
  });

  it('a declined card, and an unpaid invoice voided', async () => {
    const since = await lastEventId(app);
    const draft = await draftInvoice();
    await live.post(`/v1/orders/${draft.id}/confirm`).expect(200);
    const card = {
      number: '4000000000000002',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      cvc: '123',
    };
    const declined = await live
      .post(`/v1/orders/${draft.id}/payments`)
      .send({ method: 'card', card })
      .expect(422);
    await expectEvent(
      app,
      'payment.failed',
      { id: declined.body.payment_id, amount: 55, status: 'failed', failure_code: 'card_declined' },
      { since },
    );
    await live.post(`/v1/orders/${draft.id}/void`).expect(200);
    await expectEvent(app, 'invoice.voided', { id: draft.id, order_status: 'voided' }, { since });
  });
});
