import type { RefundRequest, RefundResult } from '#contexts/sales';
import { PAYMENT_PROCESSOR } from '#contexts/sales';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, entriesOf, fixturesOf, newProduct, stock } from './support';

/** The sandbox processor's refund, replaceable per test. */
interface Processor {
  refund(request: RefundRequest): Promise<RefundResult>;
}

/**
 * Refunds never wait on the payment processor inside a database transaction: a refund is
 * reserved (`pending`) and committed, the processor is asked outside any transaction with the
 * refund's idempotency key, and its answer is recorded once in a second transaction.
 */
describe('refunds call the payment processor outside any transaction', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;
  let processor: Processor;
  let sandboxRefund: Processor['refund'];
  const card = { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
    processor = app.get(PAYMENT_PROCESSOR as never);
    sandboxRefund = processor.refund.bind(processor);
  });
  afterEach(() => {
    processor.refund = sandboxRefund;
  });
  afterAll(() => app.close());

  /** Replaces the processor's refund; answers the keys it was asked with. */
  const processorAnswers = (answer: (request: RefundRequest) => Promise<RefundResult>) => {
    const keys: string[] = [];
    processor.refund = (request) => {
      keys.push(request.idempotencyKey);
      return answer(request);
    };
    return keys;
  };
  /** A processor whose refunds hang until released; `asked` resolves once the first call arrived. */
  const hangingProcessor = () => {
    let release!: () => void;
    let asked!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    const keys = processorAnswers(async (request) => {
      asked();
      await released;
      return sandboxRefund(request);
    });
    return { keys, arrived, release };
  };
  /** An issued invoice of 2 × 50 with 10 % tax (110) for a shipped order, and the shipped package. */
  const shippedAndInvoiced = async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 5);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: product, quantity: 2, unit_price: 50, tax_rate: 10 },
    ]);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 2 }] })
        .expect(201)
    ).body;
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: `1Z${pkg.id.slice(-8)}` })
      .expect(200);
    const invoice = (await live.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    await live.post(`/v1/orders/${invoice.id}/confirm`).send({}).expect(200);
    return { order, pkg, invoice };
  };
  const cardPayment = async (invoiceId: string, amount: number) =>
    (await live.post(`/v1/orders/${invoiceId}/payments`).send({ method: 'card', card, amount }).expect(201))
      .body;
  /** A return of one unit of the package, received back. */
  const receivedReturn = async (
    order: { id: string },
    pkg: { id: string; items: { id: string; order_item_id: string }[] },
  ) => {
    const ret = (
      await live
        .post('/v1/returns')
        .send({
          account_id: fx.accountId,
          order_id: order.id,
          lines: [{ order_item_id: pkg.items[0].order_item_id, quantity: 1 }],
        })
        .expect(201)
    ).body.id as string;
    await live
      .post(`/v1/returns/${ret}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
      .expect(200);
    return ret;
  };
  const refundsOf = async (paymentId: string) =>
    (await live.get(`/v1/payments/${paymentId}/refunds`).expect(200)).body.data as {
      id: string;
      amount: number;
      status: string;
    }[];
  /** Answers within `ms` or fails: what a request waiting on a row lock would not do. */
  const promptly = <T>(work: Promise<T>, ms = 3000): Promise<T> =>
    Promise.race([
      work,
      new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
    ]);
  /** Ages a pending refund past the grace period (as if its request had died before recording the answer). */
  const agePendingRefund = (refundId: string) =>
    app.db.query(`UPDATE refunds SET created_at = created_at - interval '5 minutes' WHERE id = $1`, [
      refundId,
    ]);

  it('a hanging processor holds no lock: the invoice is read and paid meanwhile, and the refund completes once', async () => {
    const { invoice } = await shippedAndInvoiced();
    const payment = await cardPayment(invoice.id, 60);
    const hanging = hangingProcessor();
    const refund = live
      .post(`/v1/payments/${payment.id}/refunds`)
      .send({ amount: 40 })
      .then((r) => r);
    await hanging.arrived;
    // While the processor hangs: the refund is visible as pending and holds its amount.
    const [pending] = await refundsOf(payment.id);
    expect(pending).toMatchObject({ amount: 40, status: 'pending' });
    expectError(
      await promptly(live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 20.01 })),
      422,
      'amount_exceeds_limit',
    );
    // The invoice is read and paid without waiting (its row is not locked).
    expect((await promptly(live.get(`/v1/orders/${invoice.id}`))).body).toMatchObject({
      amount_paid: 60,
      amount_due: 50,
    });
    const cash = await promptly(
      live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 5 }),
    );
    expect(cash.status).toBe(201);
    hanging.release();
    const done = await refund;
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ id: pending.id, amount: 40, status: 'succeeded' });
    expect(hanging.keys).toEqual([`refund_${pending.id}`]);
    expect((await live.get(`/v1/payments/${payment.id}`).expect(200)).body).toMatchObject({
      amount_refunded: 40,
      status: 'partially_refunded',
    });
    // 110 billed, 60 + 5 paid, 40 given back: 85 due.
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_paid: 25,
      amount_due: 85,
    });
    const [entry] = await entriesOf(app, 'REFUND', pending.id);
    expect(Object.fromEntries(entry.lines.map((l) => [l.role, Number(l.debit) - Number(l.credit)]))).toEqual({
      receivables: 40,
      cash: -40,
    });
    expect(await entriesOf(app, 'REFUND', pending.id)).toHaveLength(1);
  });

  it('a refused refund posts nothing and frees its amount; a lost answer is finished once by a later request', async () => {
    const { invoice } = await shippedAndInvoiced();
    const payment = await cardPayment(invoice.id, 60);
    processorAnswers(() => Promise.resolve({ refunded: false, message: 'Refund window closed.' }));
    const refused = await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 60 }).expect(201);
    expect(refused.body).toMatchObject({
      object: 'refund',
      payment_id: payment.id,
      amount: 60,
      status: 'failed',
    });
    const [failed] = await refundsOf(payment.id);
    expect(failed).toMatchObject({ id: refused.body.id, amount: 60, status: 'failed' });
    expect(await entriesOf(app, 'REFUND', failed.id)).toEqual([]);
    expect((await live.get(`/v1/payments/${payment.id}`).expect(200)).body).toMatchObject({
      amount_refunded: 0,
      status: 'succeeded',
    });

    // No answer at all: the refund stays pending and keeps its amount.
    processorAnswers(() => Promise.reject(new Error('connection reset')));
    expectError(
      await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 25 }),
      503,
      'service_unavailable',
    );
    const lost = (await refundsOf(payment.id)).find((r) => r.status === 'pending')!;
    expect(lost).toMatchObject({ amount: 25 });
    expectError(
      await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 35.01 }),
      422,
      'amount_exceeds_limit',
    );

    // Past the grace period, the next refund of the payment asks the processor again with the
    // lost refund's key (it had made the refund: the same answer), records it, then makes its own.
    await agePendingRefund(lost.id);
    const keys = processorAnswers((request) => sandboxRefund(request));
    const next = (await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 10 }).expect(201))
      .body;
    expect(keys).toEqual([`refund_${lost.id}`, `refund_${next.id}`]);
    const statuses = Object.fromEntries((await refundsOf(payment.id)).map((r) => [r.id, r.status]));
    expect(statuses).toEqual({ [failed.id]: 'failed', [lost.id]: 'succeeded', [next.id]: 'succeeded' });
    expect(await entriesOf(app, 'REFUND', lost.id)).toHaveLength(1);
    expect((await live.get(`/v1/payments/${payment.id}`).expect(200)).body).toMatchObject({
      amount_refunded: 35,
      status: 'partially_refunded',
    });
    // Asked again, the finished refund is not finished twice.
    await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 1 }).expect(201);
    expect(await entriesOf(app, 'REFUND', lost.id)).toHaveLength(1);
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({ amount_paid: 24 });
  });

  it("a return's refund through the payments waits on the processor outside its transactions", async () => {
    const { order, pkg, invoice } = await shippedAndInvoiced();
    const payment = await cardPayment(invoice.id, 110);
    const ret = await receivedReturn(order, pkg);
    const hanging = hangingProcessor();
    const refund = live
      .post(`/v1/returns/${ret}/refund`)
      .send({})
      .then((r) => r);
    await hanging.arrived;
    const [pending] = await refundsOf(payment.id);
    expect(pending).toMatchObject({ amount: 55, status: 'pending' });
    // The invoice is read, and the return's order takes no second refund meanwhile.
    expect((await promptly(live.get(`/v1/orders/${invoice.id}`))).body).toMatchObject({ amount_paid: 110 });
    expect((await promptly(live.get(`/v1/returns/${ret}`))).body).toMatchObject({
      amount_refunded: 0,
      refunds: [],
    });
    expectError(await promptly(live.post(`/v1/returns/${ret}/refund`).send({})), 409, 'invalid_state');
    hanging.release();
    const done = await refund;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      amount_refunded: 55,
      refunds: [{ amount: 55, method: 'original_payment', refund_ids: [pending.id] }],
    });
    expect(hanging.keys).toEqual([`refund_${pending.id}`]);
    expect((await refundsOf(payment.id)).map((r) => r.status)).toEqual(['succeeded']);
    expect(await entriesOf(app, 'CREDIT_MEMO', done.body.refunds[0].id)).toHaveLength(1);
    expect(await entriesOf(app, 'REFUND', pending.id)).toHaveLength(1);
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_credited: 55,
      amount_paid: 55,
      amount_due: 0,
    });
  });

  it("a return's refund the processor refuses posts no credit memo and can be made again", async () => {
    const { order, pkg, invoice } = await shippedAndInvoiced();
    const payment = await cardPayment(invoice.id, 110);
    const ret = await receivedReturn(order, pkg);
    processorAnswers(() => Promise.resolve({ refunded: false, message: 'Card account closed.' }));
    expectError(await live.post(`/v1/returns/${ret}/refund`).send({}), 503, 'service_unavailable');
    const [failed] = await refundsOf(payment.id);
    expect(failed).toMatchObject({ amount: 55, status: 'failed' });
    expect(await entriesOf(app, 'REFUND', failed.id)).toEqual([]);
    expect((await live.get(`/v1/returns/${ret}`).expect(200)).body).toMatchObject({
      amount_refunded: 0,
      refunds: [],
    });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_credited: 0,
      amount_paid: 110,
    });

    // A lost answer: pending until a later refund of the return, past the grace period, asks again.
    processorAnswers(() => Promise.reject(new Error('timeout')));
    expectError(await live.post(`/v1/returns/${ret}/refund`).send({}), 503, 'service_unavailable');
    const lost = (await refundsOf(payment.id)).find((r) => r.status === 'pending')!;
    await app.db.query(
      `UPDATE return_authorizations SET pending_refund = jsonb_set(pending_refund, '{created_at}', to_jsonb($2::text)) WHERE id = $1`,
      [ret, new Date(Date.now() - 5 * 60_000).toISOString()],
    );
    const keys = processorAnswers((request) => sandboxRefund(request));
    // The lost refund is finished first; the return is refunded in full afterwards.
    expectError(await live.post(`/v1/returns/${ret}/refund`).send({}), 409, 'invalid_state', {
      hint: expect.stringContaining("'refunded'"),
    });
    expect(keys).toEqual([`refund_${lost.id}`]);
    const refunded = (await live.get(`/v1/returns/${ret}`).expect(200)).body;
    expect(refunded).toMatchObject({
      status: 'refunded',
      amount_refunded: 55,
      refunds: [{ amount: 55, refund_ids: [lost.id] }],
    });
    expect(await entriesOf(app, 'CREDIT_MEMO', refunded.refunds[0].id)).toHaveLength(1);
    expect(await entriesOf(app, 'REFUND', lost.id)).toHaveLength(1);
  });
});
