import { CONTROL_ROLE_CHART } from '../accounting/support/control-role-chart';
import { OperatorService } from '#platform/auth/operator.service';
import type { SeededEntity } from '#platform/seed/qa-seed.service';
import { lockAccount } from '../support/db-faults';
import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { listAll } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

interface Invoice {
  id: string;
  total: number;
  amount_paid: number;
  amount_credited: number;
  amount_due: number;
  payment_status: string;
}

/**
 * Customer credit on a new entity with its own chart, so every ledger balance below is computed
 * by the test from the documents: a return's credit memo against an unpaid and a partly paid
 * invoice, credit spent on invoices (payments with method customer_credit), a refund of such a
 * payment, two concurrent payments from one balance. After each step: the account's
 * credit_balance, the invoices' amounts, the receivables and customer-credit control accounts
 * (summed from every journal line), the AR reconciliation variance and the trial balance.
 */
describe('customer credit: a balance that returns fill and invoices spend', () => {
  let app: TestApp;
  let client: ReturnType<typeof api>;
  let entity: SeededEntity;
  let location: string;
  let product: string;
  let customer: string;

  const chart = CONTROL_ROLE_CHART;

  beforeAll(async () => {
    app = await startTestApp();
    const created = await app.get(OperatorService).createEntity({
      code: `credit${Date.now() % 1_000_000}`,
      name: 'Credit Trading Ltd',
      baseCurrency: 'USD',
    });
    client = api(app, created.key.secret);
    entity = { id: created.entity.id, keys: { live: created.key.secret } } as unknown as SeededEntity;
    for (const account of chart)
      await client.post('/v1/accounting/ledger-accounts').send(account).expect(201);
    const year = new Date().getUTCFullYear();
    await client
      .post('/v1/accounting/fiscal-years')
      .send({ name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` })
      .expect(201);
    location = (
      await client.post('/v1/locations').send({ name: 'Main', code: 'MAIN', type: 'warehouse' }).expect(201)
    ).body.id;
    product = (
      await client
        .post('/v1/products')
        .send({ sku: 'CREDIT-1', name: 'Credit widget', type: 'standard', list_price: 50 })
        .expect(201)
    ).body.id;
    await client
      .post('/v1/inventory/adjustments')
      .send({ product_id: product, location_id: location, quantity: 100, unit_cost: 20, reason: 'opening' })
      .expect(201);
    customer = (await client.post('/v1/accounts').send({ name: 'Credit customer' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  /** Cents of debits minus credits per control role, over every line of every journal entry. */
  const ledger = async (): Promise<Record<string, number>> => {
    const accounts = await listAll<{ id: string; control_role: string | null }>(
      client,
      '/v1/accounting/ledger-accounts',
    );
    const roleOf = new Map(accounts.map((a) => [a.id, a.control_role ?? a.id]));
    const net: Record<string, number> = {};
    for (const e of await listAll(client, '/v1/journal-entries')) {
      const { lines } = (await client.get(`/v1/journal-entries/${e.id}`).expect(200)).body as {
        lines: { account_id: string; debit_amount: number; credit_amount: number }[];
      };
      for (const l of lines) {
        const role = roleOf.get(l.account_id)!;
        net[role] = (net[role] ?? 0) + Math.round(l.debit_amount * 100) - Math.round(l.credit_amount * 100);
      }
    }
    net.trial_balance = Object.values(net).reduce((a, b) => a + b, 0);
    return net;
  };

  /**
   * What the books must say, from the documents alone: receivables = the open invoices' amounts
   * due, the customer-credit liability = the account's credit balance, debits = credits, and the
   * AR reconciliation variance zero.
   */
  const expectBooks = async (step: string, invoices: Invoice[], creditBalance: number) => {
    const gl = await ledger();
    const due = invoices.reduce((sum, i) => sum + Math.round(i.amount_due * 100), 0);
    const report = (await client.get('/v1/reports/subledger-reconciliation?subledger=ar').expect(200)).body;
    const account = (await client.get(`/v1/accounts/${customer}`).expect(200)).body;
    expect({
      step,
      receivables: gl.receivables ?? 0,
      customer_credit: gl.customer_credit ?? 0,
      trial_balance: gl.trial_balance,
      ar_variance: report.ar.variance,
      credit_balance: account.credit_balance,
    }).toEqual({
      step,
      receivables: due,
      customer_credit: -Math.round(creditBalance * 100) || 0,
      trial_balance: 0,
      ar_variance: 0,
      credit_balance: creditBalance,
    });
  };

  const invoiceOf = async (id: string): Promise<Invoice> =>
    (await client.get(`/v1/orders/${id}`).expect(200)).body as Invoice;

  /** A sales order of `quantity` units at 50 with 10 % tax, shipped in full, then invoiced. */
  const shippedAndInvoiced = async (quantity: number) => {
    const draft = (
      await client
        .post('/v1/orders')
        .send({
          account_id: customer,
          lines: [{ product_id: product, quantity, unit_price: 50, tax_rate: 10 }],
        })
        .expect(201)
    ).body;
    const order = (await client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body;
    const pkg = (
      await client
        .post('/v1/packages')
        .send({
          order_id: order.id,
          location_id: location,
          items: [{ order_item_id: order.lines[0].id, quantity }],
        })
        .expect(201)
    ).body;
    await client
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: `1Z${pkg.id.slice(-8)}` })
      .expect(200);
    const converted = (await client.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    const invoice = (await client.post(`/v1/orders/${converted.id}/confirm`).send({}).expect(200))
      .body as Invoice;
    expect(invoice.total).toBe(quantity * 55);
    return { order, pkg, invoice };
  };

  /** A return of `quantity` units of the order, received back in full. */
  const returned = async (
    shipped: Awaited<ReturnType<typeof shippedAndInvoiced>>,
    quantity: number,
  ): Promise<string> => {
    const ret = (
      await client
        .post('/v1/returns')
        .send({
          account_id: customer,
          order_id: shipped.order.id,
          lines: [{ order_item_id: shipped.order.lines[0].id, quantity }],
        })
        .expect(201)
    ).body;
    await client
      .post(`/v1/returns/${ret.id}/receive`)
      .send({ package_id: shipped.pkg.id, items: [{ package_item_id: shipped.pkg.items[0].id, quantity }] })
      .expect(200);
    return ret.id as string;
  };

  const events = () => outbox(app, { entity });

  let first: Awaited<ReturnType<typeof shippedAndInvoiced>>;
  let second: Awaited<ReturnType<typeof shippedAndInvoiced>>;

  it('settles a return against an unpaid invoice by a credit memo that reduces the amount due', async () => {
    first = await shippedAndInvoiced(2);
    await expectBooks('invoiced', [first.invoice], 0);
    const ret = await returned(first, 1);
    const since = (await events().all()).at(-1)?.id;

    const refunded = (await client.post(`/v1/returns/${ret}/refund`).send({}).expect(200)).body;
    // One unit of 50 plus 10 % tax came back; nothing was paid, so nothing goes back.
    expect(refunded).toMatchObject({
      status: 'refunded',
      amount_refunded: 55,
      refunds: [
        {
          amount: 55,
          amount_due_reduced: 55,
          refunded_amount: 0,
          refund_ids: [],
          credit_transaction_id: null,
          method: 'original_payment',
        },
      ],
    });
    const invoice = await invoiceOf(first.invoice.id);
    expect(invoice).toMatchObject({
      total: 110,
      amount_credited: 55,
      amount_paid: 0,
      amount_due: 55,
      payment_status: 'unpaid',
    });
    await expectBooks('credit memo on an unpaid invoice', [invoice], 0);
    const after = await events().since(since);
    expect(after.filter((e) => e.type.startsWith('payment.'))).toEqual([]);
    // Two units of 50 plus 10 % tax were invoiced; one came back.
    await expectEvent(
      app,
      'invoice.updated',
      { id: invoice.id, total: 110, amount_credited: 55, amount_due: 55 },
      { entity, since, previous: { amount_due: 110, amount_credited: 0 } },
    );

    // Its credit memo already took part of it back: it can no longer be voided.
    expectError(await client.post(`/v1/orders/${invoice.id}/void`).send({}), 409, 'invalid_state');
    // What is left is what the customer still owes.
    await client.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash' }).expect(201);
    const paid = await invoiceOf(invoice.id);
    expect(paid).toMatchObject({ amount_paid: 55, amount_due: 0, payment_status: 'paid' });
    await expectBooks('rest paid', [paid], 0);
  });

  it('pays back only what was paid of a partly paid invoice, to the customer credit balance', async () => {
    second = await shippedAndInvoiced(2);
    await client
      .post(`/v1/orders/${second.invoice.id}/payments`)
      .send({ method: 'cash', amount: 80 })
      .expect(201);
    const ret = await returned(second, 1);
    const since = (await events().all()).at(-1)?.id;

    const refunded = (
      await client.post(`/v1/returns/${ret}/refund`).send({ method: 'customer_credit' }).expect(200)
    ).body;
    // 55 credited: 30 was still due, so 25 of the 80 paid goes to the customer's credit.
    expect(refunded.refunds[0]).toMatchObject({
      amount: 55,
      amount_due_reduced: 30,
      refunded_amount: 25,
      method: 'customer_credit',
    });
    const invoice = await invoiceOf(second.invoice.id);
    expect(invoice).toMatchObject({
      amount_credited: 55,
      amount_paid: 55,
      amount_due: 0,
      payment_status: 'paid',
    });
    await expectBooks('credit memo on a partly paid invoice', [invoice], 25);

    const transactions = (await client.get(`/v1/accounts/${customer}/credit-transactions`).expect(200)).body;
    expect(transactions).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/accounts/${customer}/credit-transactions`,
      data: [
        {
          id: refunded.refunds[0].credit_transaction_id,
          object: 'credit_transaction',
          account_id: customer,
          type: 'return_credit',
          amount: 25,
          currency: 'USD',
          ending_balance: 25,
          order_id: invoice.id,
          payment_id: null,
        },
      ],
    });
    const accountUpdated = (await events().since(since, 'account.updated')).map((e) => [
      e.data.object.credit_balance,
      e.data.previous_attributes,
    ]);
    expect(accountUpdated).toEqual([[25, { credit_balance: 0 }]]);
  });

  it('spends credit on an invoice, refuses more than the balance or the amount due, and takes refunds back', async () => {
    const third = await shippedAndInvoiced(1);
    expectError(
      await client
        .post(`/v1/orders/${third.invoice.id}/payments`)
        .send({ method: 'customer_credit', amount: 30 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount', credit_balance: 25 },
    );
    expectError(
      await client
        .post(`/v1/orders/${third.invoice.id}/payments`)
        .send({ method: 'customer_credit', amount: 56 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount' },
    );
    expectError(
      await client.post(`/v1/orders/${first.invoice.id}/payments`).send({ method: 'customer_credit' }),
      409,
      'invalid_state',
    );
    await expectBooks('refused', [await invoiceOf(second.invoice.id), third.invoice], 25);

    const since = (await events().all()).at(-1)?.id;
    // Default: as much of the 55 due as the balance of 25 covers.
    const payment = (
      await client
        .post(`/v1/orders/${third.invoice.id}/payments`)
        .send({ method: 'customer_credit' })
        .expect(201)
    ).body;
    expect(payment).toMatchObject({
      object: 'payment',
      method: 'customer_credit',
      amount: 25,
      status: 'succeeded',
      processor_reference: null,
      applications: [{ order_id: third.invoice.id, amount: 25 }],
    });
    let invoice = await invoiceOf(third.invoice.id);
    expect(invoice).toMatchObject({ amount_paid: 25, amount_due: 30, payment_status: 'partially_paid' });
    await expectBooks('credit spent', [invoice], 0);
    const types = (await events().since(since))
      .map((e) => e.type)
      .filter((t) => !t.startsWith('accounting.'))
      .reverse();
    expect(types).toEqual(['account.updated', 'payment.succeeded', 'invoice.partially_paid']);
    expectError(
      await client.post(`/v1/orders/${third.invoice.id}/payments`).send({ method: 'customer_credit' }),
      422,
      'amount_exceeds_limit',
      { param: 'amount', credit_balance: 0 },
    );

    // A refund of a payment from credit goes back to the balance, not to cash.
    const refund = (await client.post(`/v1/payments/${payment.id}/refunds`).send({ amount: 10 }).expect(201))
      .body;
    expect(refund).toMatchObject({ amount: 10, payment_id: payment.id });
    invoice = await invoiceOf(third.invoice.id);
    expect(invoice).toMatchObject({ amount_paid: 15, amount_due: 40 });
    await expectBooks('credit payment refunded', [invoice], 10);

    const listed = (await client.get(`/v1/accounts/${customer}/credit-transactions`).expect(200)).body.data;
    expect(
      listed.map((t: { type: string; amount: number; ending_balance: number }) => [
        t.type,
        t.amount,
        t.ending_balance,
      ]),
    ).toEqual([
      ['payment_refund', 10, 10],
      ['invoice_payment', -25, 0],
      ['return_credit', 25, 25],
    ]);
    expect(listed[1]).toMatchObject({ payment_id: payment.id, order_id: third.invoice.id });
    const page = (await client.get(`/v1/accounts/${customer}/credit-transactions?limit=1`).expect(200)).body;
    expect(page).toMatchObject({ has_more: true, data: [{ id: listed[0].id }] });
    expect(
      (await client.get(`/v1/accounts/${customer}/credit-transactions/${listed[1].id}`).expect(200)).body,
    ).toEqual(listed[1]);
    const stranger = (await client.post('/v1/accounts').send({ name: 'Another customer' }).expect(201)).body
      .id;
    expectError(
      await client.get(`/v1/accounts/${stranger}/credit-transactions/${listed[1].id}`),
      404,
      'not_found',
    );
  });

  it('lets only one of two concurrent payments spend a balance that covers one', async () => {
    const a = await shippedAndInvoiced(1);
    const b = await shippedAndInvoiced(1);
    // The balance is 10 (the refund above); each payment asks 8. The account's row is held
    // until both requests wait on it, so they run at the same time whatever the machine's speed.
    const held = await lockAccount(app, customer);
    const pending = Promise.all(
      [a, b].map(async (s) =>
        client.post(`/v1/orders/${s.invoice.id}/payments`).send({ method: 'customer_credit', amount: 8 }),
      ),
    );
    try {
      await held.waitForQueue(2);
    } finally {
      await held.release();
    }
    const answers = await pending;
    expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);
    expectError(
      answers.find((r) => r.status === 422)!,
      422,
      'amount_exceeds_limit',
      { credit_balance: 2 },
    );
    const invoices = [await invoiceOf(a.invoice.id), await invoiceOf(b.invoice.id)];
    expect(invoices.map((i) => i.amount_paid).sort()).toEqual([0, 8]);
    const third = (
      await listAll<Invoice & { document_type: string }>(client, '/v1/orders?document_type=invoice')
    ).filter((i) => ![a.invoice.id, b.invoice.id].includes(i.id));
    await expectBooks('concurrent payments', [...invoices, ...third], 2);
    const transactions = await listAll<{ id: string; amount: number }>(
      client,
      `/v1/accounts/${customer}/credit-transactions`,
    );
    expect(transactions.reduce((sum, t) => sum + Math.round(t.amount * 100), 0)).toBe(200);
  });

  it('moves the credit balance with a merge, without touching the ledger', async () => {
    const before = await ledger();
    // Credit is in the account's currency: it cannot change, nor move to an account in another.
    expectError(
      await client.patch(`/v1/accounts/${customer}`).send({ currency: 'EUR' }),
      409,
      'invalid_state',
      {
        param: 'currency',
      },
    );
    const euro = (
      await client.post('/v1/accounts').send({ name: 'Euro target', currency: 'EUR' }).expect(201)
    ).body.id;
    expectError(
      await client.post(`/v1/accounts/${euro}/merge`).send({ source_account_id: customer }),
      409,
      'invalid_state',
      { param: 'source_account_id' },
    );
    const target = (await client.post('/v1/accounts').send({ name: 'Merge target' }).expect(201)).body.id;
    const merged = (
      await client.post(`/v1/accounts/${target}/merge`).send({ source_account_id: customer }).expect(200)
    ).body;
    expect(merged.credit_balance).toBe(2);
    expect((await client.get(`/v1/accounts/${customer}`).expect(200)).body.credit_balance).toBe(0);
    const [moved] = (await client.get(`/v1/accounts/${target}/credit-transactions`).expect(200)).body.data;
    expect(moved).toMatchObject({ type: 'account_merge', amount: 2, ending_balance: 2 });
    const [left] = (await client.get(`/v1/accounts/${customer}/credit-transactions`).expect(200)).body.data;
    expect(left).toMatchObject({ type: 'account_merge', amount: -2, ending_balance: 0 });
    expect(await ledger()).toEqual(before);
  });
});
