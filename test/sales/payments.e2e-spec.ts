import { asEntity } from '../support/as-entity';
import { ReceivablesRegistry } from '#contexts/accounting';
import { money } from '#platform/domain/money';
import { CustomerCreditRepository } from '#contexts/sales';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { storedPaymentRow } from './support';

type Api = ReturnType<typeof api>;

describe('payments', () => {
  let app: TestApp;
  let live: Api;
  let accountId: string;
  let productId: string;
  let ledger: Record<string, string>;

  const card = (number: string) => ({
    number,
    exp_month: 12,
    exp_year: new Date().getUTCFullYear() + 3,
    cvc: '123',
  });
  const eventsOf = (id: string, entity = app.seed.entities.primary) => outbox(app, { entity }).typesOf(id);
  /** The journal entry posted for a source, with its lines, through the API. */
  const entryFor = async (sourceType: string, sourceId: string) => {
    const list = (await live.get(`/v1/journal-entries?source_type=${sourceType}&limit=100`).expect(200)).body
      .data;
    const found = list.find((e: { source_id: string }) => e.source_id === sourceId);
    if (!found) return undefined;
    const entry = (await live.get(`/v1/journal-entries/${found.id}`).expect(200)).body;
    return {
      entry,
      lines: entry.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => ({
        account: Object.keys(ledger).find((k) => ledger[k] === l.account_id) ?? l.account_id,
        debit: l.debit_amount,
        credit: l.credit_amount,
      })),
    };
  };
  /** An issued (confirmed) invoice: 2 × 25 with 10 % tax = 55.00. */
  const issuedInvoice = async (client: Api = live, account = accountId) => {
    const draft = (
      await client
        .post('/v1/orders')
        .send({
          document_type: 'invoice',
          account_id: account,
          lines: [{ product_id: productId, quantity: 2, tax_rate: 10 }],
        })
        .expect(201)
    ).body;
    return (await client.post(`/v1/orders/${draft.id}/confirm`).expect(200)).body;
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    productId = app.seed.fixtures.product_id as string;
    ledger = app.seed.fixtures.ledger_accounts as Record<string, string>;
    const taxAccount = (
      await live.get('/v1/accounting/ledger-accounts?limit=100').expect(200)
    ).body.data.find((a: { control_role: string }) => a.control_role === 'tax');
    ledger = { ...ledger, tax: taxAccount?.id };
    accountId = (await live.post('/v1/accounts').send({ name: 'Payer Co' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  it('posts an issued invoice to the ledger: debit receivables, credit revenue and tax', async () => {
    const invoice = await issuedInvoice();
    expect(invoice).toMatchObject({
      document_type: 'invoice',
      order_status: 'confirmed',
      total: 55,
      amount_due: 55,
      payment_status: 'unpaid',
    });
    const posted = await entryFor('INVOICE', invoice.id);
    expect(posted?.entry).toMatchObject({
      status: 'posted',
      source_module: 'sales',
      total_debit: 55,
      total_credit: 55,
    });
    expect(posted?.lines).toEqual([
      { account: 'receivables', debit: 55, credit: 0 },
      { account: 'revenue', debit: 0, credit: 50 },
      { account: 'tax', debit: 0, credit: 5 },
    ]);
    expect(await eventsOf(invoice.id)).toEqual([
      'order.created',
      'invoice.created',
      'order.confirmed',
      'invoice.finalized',
    ]);
    // A draft invoice posts nothing.
    const draft = (
      await live
        .post('/v1/orders')
        .send({
          document_type: 'invoice',
          account_id: accountId,
          lines: [{ product_id: productId, quantity: 1 }],
        })
        .expect(201)
    ).body;
    expect(await entryFor('INVOICE', draft.id)).toBeUndefined();
  });

  it('takes card payments in parts, updates payment_status and posts PAYMENT', async () => {
    const invoice = await issuedInvoice();
    const first = await live
      .post(`/v1/orders/${invoice.id}/payments`)
      .send({ method: 'card', amount: 20.5, card: card('4242424242424242') })
      .expect(201);
    expect(first.body).toMatchObject({
      object: 'payment',
      status: 'succeeded',
      amount: 20.5,
      method: 'card',
      card: { brand: 'visa', last4: '4242' },
      order_id: invoice.id,
      account_id: accountId,
      applications: [{ order_id: invoice.id, amount: 20.5 }],
    });
    expect(JSON.stringify(first.body)).not.toContain('4242424242424242');
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'partially_paid',
      amount_paid: 20.5,
      amount_due: 34.5,
    });
    expect((await entryFor('PAYMENT', first.body.id))?.lines).toEqual([
      { account: 'cash', debit: 20.5, credit: 0 },
      { account: 'receivables', debit: 0, credit: 20.5 },
    ]);
    expectError(
      await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 34.51 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount' },
    );
    const rest = (
      await live
        .post(`/v1/orders/${invoice.id}/payments`)
        .send({ method: 'cash', reference: 'till 3' })
        .expect(201)
    ).body;
    expect(rest).toMatchObject({ amount: 34.5, method: 'cash', card: null, reference: 'till 3' });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'paid',
      amount_paid: 55,
      amount_due: 0,
    });
    expectError(
      await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash' }),
      409,
      'invalid_state',
      { hint: expect.stringContaining("'paid'") },
    );
    expect(await eventsOf(first.body.id)).toEqual(['payment.succeeded']);
    expect((await eventsOf(invoice.id)).slice(-2)).toEqual(['invoice.partially_paid', 'invoice.paid']);
    const listed = (await live.get(`/v1/orders/${invoice.id}/payments`).expect(200)).body;
    expect(listed.data.map((p: { id: string }) => p.id)).toEqual([rest.id, first.body.id]);
    expect((await live.get(`/v1/payments?order_id=${invoice.id}`).expect(200)).body.data).toHaveLength(2);
    expect((await live.get(`/v1/payments/${rest.id}?expand[]=order`).expect(200)).body.order).toMatchObject({
      id: invoice.id,
      object: 'order',
    });
  });

  it('declines 4000000000000002 with 422 card_declined, stores the failed attempt without the card number and emits payment.failed', async () => {
    const invoice = await issuedInvoice();
    const res = await live
      .post(`/v1/orders/${invoice.id}/payments`)
      .send({ method: 'card', card: card('4000000000000002') });
    expectError(res, 422, 'card_declined', {
      param: 'card.number',
      decline_code: 'card_declined',
      type: 'validation_error',
    });
    const paymentId = res.body.payment_id as string;
    const failed = (await live.get(`/v1/payments/${paymentId}`).expect(200)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
      card: { last4: '0002' },
      amount: 55,
    });
    expect(await eventsOf(paymentId)).toEqual(['payment.failed']);
    // What is stored is the point here (never the card number): no route shows the whole row.
    expect(await storedPaymentRow(app, paymentId)).not.toContain('4000000000000002');
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'unpaid',
      amount_due: 55,
    });
    expect(await entryFor('PAYMENT', paymentId)).toBeUndefined();
    expectError(
      await live
        .post(`/v1/orders/${invoice.id}/payments`)
        .send({ method: 'card', card: card('4242424242424241') }),
      422,
      'card_declined',
      { decline_code: 'incorrect_number' },
    );
  });

  it('validates payment bodies', async () => {
    const invoice = await issuedInvoice();
    const pay = (body: Record<string, unknown>) => live.post(`/v1/orders/${invoice.id}/payments`).send(body);
    expectError(await pay({}), 400, 'parameter_missing', { param: 'method' });
    expectError(await pay({ method: 'barter' }), 400, 'parameter_invalid', { param: 'method' });
    expectError(await pay({ method: 'cash', amount: 0 }), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await pay({ method: 'cash', amount: -5 }), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await pay({ method: 'cash', amount: 1.005 }), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await pay({ method: 'card' }), 400, 'parameter_missing', { param: 'card' });
    expectError(
      await pay({ method: 'card', card: { number: '4242', exp_month: 1, exp_year: 2030 } }),
      400,
      'parameter_invalid',
      { param: 'card.number' },
    );
    expectError(
      await pay({ method: 'card', card: { ...card('4242424242424242'), exp_month: 13 } }),
      400,
      'parameter_invalid',
      { param: 'card.exp_month' },
    );
    expectError(await pay({ method: 'cash', card: card('4242424242424242') }), 400, 'parameter_invalid', {
      param: 'card',
    });
    expectError(await pay({ method: 'payment_method' }), 400, 'parameter_missing', {
      param: 'payment_method_id',
    });
    expectError(
      await pay({
        method: 'payment_method',
        payment_method_id: (app.seed.fixtures.payment_method_ids as string[])[0],
      }),
      400,
      'parameter_invalid',
      { param: 'payment_method_id' },
    );
    expectError(await pay({ method: 'cash', tip: 1 }), 400, 'parameter_unknown', { param: 'tip' });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body.amount_paid).toBe(0);
  });

  it('charges a stored payment method of the order account', async () => {
    const seededAccount = app.seed.fixtures.account_id as string;
    const invoice = await issuedInvoice(live, seededAccount);
    const pm = (app.seed.fixtures.payment_method_ids as string[])[0];
    const paid = (
      await live
        .post(`/v1/orders/${invoice.id}/payments`)
        .send({ method: 'payment_method', payment_method_id: pm, amount: 10 })
        .expect(201)
    ).body;
    expect(paid).toMatchObject({ status: 'succeeded', payment_method_id: pm, method: 'payment_method' });
  });

  it('never overpays under concurrent payments of the same invoice', async () => {
    const invoice = await issuedInvoice();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        live
          .post(`/v1/orders/${invoice.id}/payments`)
          .send({ method: 'card', amount: 30, card: card('4242424242424242') }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.code).toBe('amount_exceeds_limit');
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_paid: 30,
      amount_due: 25,
      payment_status: 'partially_paid',
    });
    const payments = (await live.get(`/v1/payments?order_id=${invoice.id}`).expect(200)).body.data;
    expect(payments.map((p: { status: string }) => p.status)).toEqual(['succeeded']);
  });

  it('accepts payments only on issued invoices', async () => {
    const so = (
      await live
        .post('/v1/orders')
        .send({ account_id: accountId, lines: [{ product_id: productId, quantity: 1 }] })
        .expect(201)
    ).body;
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    expectError(
      await live.post(`/v1/orders/${so.id}/payments`).send({ method: 'cash' }),
      409,
      'invalid_state',
      { hint: expect.stringContaining('sales_order') },
    );
    const draft = (
      await live
        .post('/v1/orders')
        .send({
          document_type: 'invoice',
          account_id: accountId,
          lines: [{ product_id: productId, quantity: 1 }],
        })
        .expect(201)
    ).body;
    expectError(
      await live.post(`/v1/orders/${draft.id}/payments`).send({ method: 'cash' }),
      409,
      'invalid_state',
      { hint: expect.stringContaining("'draft'") },
    );
    expectError(
      await live.post('/v1/orders/0190a000-0000-7000-8000-000000000000/payments').send({ method: 'cash' }),
      404,
      'not_found',
    );
  });

  it('refunds in part and in full, posting REFUND and moving the statuses', async () => {
    const invoice = await issuedInvoice();
    const payment = (
      await live
        .post(`/v1/orders/${invoice.id}/payments`)
        .send({ method: 'card', card: card('4242424242424242') })
        .expect(201)
    ).body;
    const partial = (
      await live
        .post(`/v1/payments/${payment.id}/refunds`)
        .send({ amount: 15, reason: 'damaged' })
        .expect(201)
    ).body;
    expect(partial).toMatchObject({
      object: 'refund',
      payment_id: payment.id,
      order_id: invoice.id,
      amount: 15,
      status: 'succeeded',
      reason: 'damaged',
    });
    expect((await live.get(`/v1/payments/${payment.id}`).expect(200)).body).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: 15,
    });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'partially_paid',
      amount_paid: 40,
      amount_refunded: 15,
      amount_due: 15,
    });
    expect((await entryFor('REFUND', partial.id))?.lines).toEqual([
      { account: 'receivables', debit: 15, credit: 0 },
      { account: 'cash', debit: 0, credit: 15 },
    ]);
    expectError(
      await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 40.01 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount' },
    );
    const rest = (await live.post(`/v1/payments/${payment.id}/refunds`).send({}).expect(201)).body;
    expect(rest.amount).toBe(40);
    expect((await live.get(`/v1/payments/${payment.id}`).expect(200)).body).toMatchObject({
      status: 'refunded',
      amount_refunded: 55,
    });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'refunded',
      amount_paid: 0,
      amount_due: 55,
    });
    expectError(await live.post(`/v1/payments/${payment.id}/refunds`).send({}), 409, 'invalid_state', {
      hint: expect.stringContaining("'refunded'"),
    });
    expect(await eventsOf(payment.id)).toEqual([
      'payment.succeeded',
      'payment.partially_refunded',
      'payment.refunded',
    ]);
    const refunds = (await live.get(`/v1/payments/${payment.id}/refunds`).expect(200)).body;
    expect(refunds.data.map((r: { id: string }) => r.id)).toEqual([rest.id, partial.id]);
    expectError(
      await live.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 'x' }),
      400,
      'parameter_invalid',
      { param: 'amount' },
    );
    expectError(
      await live.post('/v1/payments/0190a000-0000-7000-8000-000000000000/refunds').send({}),
      404,
      'not_found',
    );
  });

  it('voids an unpaid issued invoice with a reversing posting and refuses to void a paid one', async () => {
    const invoice = await issuedInvoice();
    const voided = (await live.post(`/v1/orders/${invoice.id}/void`).expect(200)).body;
    expect(voided).toMatchObject({ order_status: 'voided', amount_due: 0 });
    expect((await entryFor('ORDER_CANCELLATION', invoice.id))?.lines).toEqual([
      { account: 'revenue', debit: 50, credit: 0 },
      { account: 'tax', debit: 5, credit: 0 },
      { account: 'receivables', debit: 0, credit: 55 },
    ]);
    expect((await eventsOf(invoice.id)).slice(-2)).toEqual(['order.voided', 'invoice.voided']);
    const paid = await issuedInvoice();
    await live.post(`/v1/orders/${paid.id}/payments`).send({ method: 'cash', amount: 1 }).expect(201);
    expectError(await live.post(`/v1/orders/${paid.id}/void`), 409, 'invalid_state', {
      hint: expect.stringContaining('payment'),
    });
    expectError(await live.post(`/v1/orders/${paid.id}/cancel`), 409, 'invalid_state');
  });

  it('needs orders:write AND payments:write to pay an order', async () => {
    const keysPath = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    const keyWith = async (...scopes: string[]) =>
      (
        await live
          .post(keysPath)
          .send({ name: scopes.join(' '), scopes })
          .expect(201)
      ).body.secret as string;
    const invoice = await issuedInvoice();
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    expectError(
      await ordersOnly.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash' }),
      403,
      'insufficient_scope',
      { required: 'payments:write' },
    );
    const paymentsOnly = api(app, await keyWith('payments:write', 'payments:read'));
    expectError(
      await paymentsOnly.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash' }),
      403,
      'insufficient_scope',
      { required: 'orders:write' },
    );
    const both = api(app, await keyWith('orders:write', 'payments:write'));
    await both.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 1 }).expect(201);
    expectError(await ordersOnly.get('/v1/payments'), 403, 'insufficient_scope', {
      required: 'payments:read',
    });
    expectError(
      await ordersOnly.post(`/v1/payments/0190a000-0000-7000-8000-000000000000/refunds`).send({}),
      403,
      'insufficient_scope',
      { required: 'payments:write' },
    );
  });

  it('isolates payments by entity and mode', async () => {
    const invoice = await issuedInvoice();
    const payment = (
      await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 5 }).expect(201)
    ).body;
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      const client = api(app, key);
      expectError(await client.get(`/v1/payments/${payment.id}`), 404, 'not_found');
      expectError(await client.post(`/v1/payments/${payment.id}/refunds`).send({}), 404, 'not_found');
      expectError(
        await client.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash' }),
        404,
        'not_found',
      );
      expect(
        (await client.get('/v1/payments?limit=100').expect(200)).body.data.map((p: { id: string }) => p.id),
      ).not.toContain(payment.id);
    }
  });

  it('works in test mode against the test-mode books', async () => {
    const test = api(app, app.seed.entities.primary.keys.test);
    const testAccount = (await test.post('/v1/accounts').send({ name: 'Test payer' }).expect(201)).body.id;
    const draft = (
      await test
        .post('/v1/orders')
        .send({
          document_type: 'invoice',
          account_id: testAccount,
          lines: [{ description: 'x', quantity: 1, unit_price: 9 }],
        })
        .expect(201)
    ).body;
    await test.post(`/v1/orders/${draft.id}/confirm`).expect(200);
    const paid = (
      await test
        .post(`/v1/orders/${draft.id}/payments`)
        .send({ method: 'card', card: card('4242424242424242') })
        .expect(201)
    ).body;
    expect(paid).toMatchObject({ livemode: false, status: 'succeeded', amount: 9 });
  });

  it('answers 422 account_not_postable when the entity has no control accounts', async () => {
    const other = api(app, app.seed.entities.secondary.keys.live);
    const acct = (await other.post('/v1/accounts').send({ name: 'No books' }).expect(201)).body.id;
    const draft = (
      await other
        .post('/v1/orders')
        .send({
          document_type: 'invoice',
          account_id: acct,
          lines: [{ description: 'x', quantity: 1, unit_price: 9 }],
        })
        .expect(201)
    ).body;
    expectError(await other.post(`/v1/orders/${draft.id}/confirm`), 422, 'account_not_postable');
    expect((await other.get(`/v1/orders/${draft.id}`).expect(200)).body.order_status).toBe('draft');
    expect(await eventsOf(draft.id, app.seed.entities.secondary)).toEqual([
      'order.created',
      'invoice.created',
    ]);
  });

  it('serves accounting through the receivables port', async () => {
    const port = app.get(ReceivablesRegistry).port;
    const invoice = await issuedInvoice();
    const run = <T>(fn: () => Promise<T>) => asEntity(app, fn);
    const open = await run(() =>
      port.findOpenInvoices(accountId, [invoice.id, '0190a000-0000-7000-8000-000000000000']),
    );
    expect(open.map((o) => ({ id: o.invoiceId, due: o.amountDue.toNumber() }))).toEqual([
      { id: invoice.id, due: 55 },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const before = await run(() => port.openReceivablesBalance(today));
    const { paymentId } = await run(() =>
      port.recordDepositPayment({
        accountId,
        applications: [{ invoiceId: invoice.id, amount: money(30) }],
        paymentMethod: 'bank_deposit',
        reference: 'dep-1',
      }),
    );
    expect((await live.get(`/v1/payments/${paymentId}`).expect(200)).body).toMatchObject({
      amount: 30,
      method: 'bank_deposit',
      reference: 'dep-1',
      status: 'succeeded',
    });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      payment_status: 'partially_paid',
      amount_due: 25,
    });
    const after = await run(() => port.openReceivablesBalance(today));
    expect(before.minus(after).toNumber()).toBe(30);
    expect((await run(() => port.openReceivablesBalance('2000-01-01'))).toNumber()).toBe(0);
    const second = await issuedInvoice();
    const both = await run(() =>
      port.recordDepositPayment({
        accountId,
        applications: [
          { invoiceId: invoice.id, amount: money(5) },
          { invoiceId: second.id, amount: money(55) },
        ],
        paymentMethod: null,
        reference: 'dep-3',
      }),
    );
    expect((await live.get(`/v1/payments/${both.paymentId}`).expect(200)).body).toMatchObject({
      amount: 60,
      method: 'bank_deposit',
      order_id: null,
      applications: [
        { order_id: invoice.id, amount: 5 },
        { order_id: second.id, amount: 55 },
      ],
    });
    expect((await live.get(`/v1/orders/${second.id}`).expect(200)).body.payment_status).toBe('paid');
    expectError(await live.post(`/v1/payments/${both.paymentId}/refunds`).send({}), 409, 'invalid_state', {
      hint: expect.stringContaining('2 invoices'),
    });
    await run(() => port.addCustomerCredit(accountId, money(12.5), 'dep-2'));
    // Customer credits have no route of their own: their repository reads them.
    const credits = await run(() =>
      app
        .get(CustomerCreditRepository)
        .scopedQuery('c')
        .andWhere('c.account_id = :accountId', { accountId })
        .getMany(),
    );
    expect(credits.map((c) => c.amount.toFixed(4))).toEqual(['12.5000']);
  });
});
