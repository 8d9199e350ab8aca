import { api, expectError } from '../support/http';
import { journalEntriesOf } from '../support/journal';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;
/** `day` plus `days` calendar days (the seeded entity keeps its books in UTC). */
const plus = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const utcToday = () => new Date().toISOString().slice(0, 10);

/** POST /v1/test_helpers/collections/run: an overdue invoice and its late fee, observable now, in test mode. */
describe('test helper: run the collections sweep as of a later business day', () => {
  let app: TestApp;
  let test: ReturnType<typeof api>;
  let live: ReturnType<typeof api>;
  let accountId: string;
  const RUN = '/v1/test_helpers/collections/run';

  beforeAll(async () => {
    app = await startTestApp();
    test = api(app, app.seed.entities.primary.keys.test);
    live = api(app, app.seed.entities.primary.keys.live);
    const terms = await test
      .post('/v1/payment-terms')
      .send({ name: 'Net 30', code: 'N30-HELPER', net_days: 30 })
      .expect(201);
    accountId = (
      await test
        .post('/v1/accounts')
        .send({ name: 'Slow payer', payment_terms_id: terms.body.id })
        .expect(201)
    ).body.id;
    await test
      .patch('/v1/accounting/settings')
      .send({
        late_fee_type: 'flat',
        late_fee_amount: 25,
        late_fee_grace_days: 5,
        late_fee_frequency: 'per_invoice',
      })
      .expect(200);
  });
  afterAll(() => app.close());

  const issue = async (client: ReturnType<typeof api>, account: string, amount: number) => {
    const created = await client
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id: account,
        lines: [{ description: 'Consulting', quantity: 1, unit_price: amount }],
      })
      .expect(201);
    return (await client.post(`/v1/orders/${created.body.id}/confirm`).expect(200)).body as {
      id: string;
      due_date: string;
    };
  };
  const lateFeesOf = async (invoiceId: string) =>
    (
      (await test.get('/v1/orders?document_type=late_fee_invoice&limit=100').expect(200)).body.data as {
        id: string;
        source_order_id: string;
        total: number;
      }[]
    ).filter((o) => o.source_order_id === invoiceId);

  it('marks the invoice overdue the day after its due date and charges the late fee after the grace days, once', async () => {
    const invoice = await issue(test, accountId, 400);
    const dueDate = plus(utcToday(), 30);
    expect(invoice.due_date).toBe(dueDate);

    // Today nothing is due; on the due date itself it is not yet overdue.
    const now = await test.post(RUN).send({}).expect(200);
    expect(now.body).toMatchObject({
      object: 'collections_run',
      as_of: utcToday(),
      overdue: 0,
      late_fees: 0,
    });
    await test.post(RUN).send({ as_of: dueDate }).expect(200);
    expect((await test.get(`/v1/orders/${invoice.id}`).expect(200)).body.collection_status).toBe('current');

    const dayAfter = await test
      .post(RUN)
      .send({ as_of: plus(dueDate, 1) })
      .expect(200);
    expect(dayAfter.body).toMatchObject({ as_of: plus(dueDate, 1), overdue: 1, late_fees: 0 });
    const overdue = (await test.get(`/v1/orders/${invoice.id}`).expect(200)).body;
    expect(overdue).toMatchObject({ collection_status: 'overdue', amount_due: 400 });
    const overdueEvents = (
      await outbox(app, { key: app.seed.entities.primary.keys.test }).all('invoice.overdue')
    ).filter((e) => e.data.object.id === invoice.id);
    expect(overdueEvents).toHaveLength(1);
    expect(overdueEvents[0]).toMatchObject({ livemode: false });
    expect(await lateFeesOf(invoice.id)).toEqual([]);

    // Grace of 5 days: the fee comes on day 6 after the due date, 25 flat, posted as LATE_FEE.
    expect(
      (
        await test
          .post(RUN)
          .send({ as_of: plus(dueDate, 5) })
          .expect(200)
      ).body.late_fees,
    ).toBe(0);
    const charged = await test
      .post(RUN)
      .send({ as_of: plus(dueDate, 6) })
      .expect(200);
    expect(charged.body).toMatchObject({ overdue: 0, late_fees: 1 });
    const fees = await lateFeesOf(invoice.id);
    expect(fees.map((f) => f.total)).toEqual([25]);
    const [entry] = await journalEntriesOf(
      app,
      ['LATE_FEE'],
      [fees[0].id],
      app.seed.entities.primary.keys.test,
    );
    expect(entry).toMatchObject({ source_type: 'LATE_FEE', total_debit: 25, total_credit: 25 });
    const applied = (
      await outbox(app, { key: app.seed.entities.primary.keys.test }).all('invoice.late_fee_applied')
    ).filter((e) => e.data.object.source_order_id === invoice.id);
    expect(applied.map((e) => e.data.object.id)).toEqual([fees[0].id]);

    // Again: nothing more (per_invoice), and the business day itself has not moved.
    expect(
      (
        await test
          .post(RUN)
          .send({ as_of: plus(dueDate, 40) })
          .expect(200)
      ).body,
    ).toMatchObject({
      overdue: 0,
      late_fees: 0,
    });
    expect(await lateFeesOf(invoice.id)).toHaveLength(1);
    expect((await test.post(RUN).send({}).expect(200)).body.as_of).toBe(utcToday());
  });

  it('is refused with a live key (403 test_mode_only) and touches no live invoice', async () => {
    const liveAccount = (
      await live
        .post('/v1/accounts')
        .send({
          name: 'Live payer',
          payment_terms_id: (
            await live
              .post('/v1/payment-terms')
              .send({ name: 'Net 1', code: 'N1-LIVE', net_days: 1 })
              .expect(201)
          ).body.id,
        })
        .expect(201)
    ).body.id;
    const liveInvoice = await issue(live, liveAccount, 80);
    const res = await live.post(RUN).send({ as_of: plus(utcToday(), 10) });
    expectError(res, 403, 'test_mode_only', { type: 'permission_error' });
    expect(res.body.hint).toContain('key_test_');
    // A test-mode sweep far ahead leaves the live invoice alone too.
    await test
      .post(RUN)
      .send({ as_of: plus(utcToday(), 10) })
      .expect(200);
    expect((await live.get(`/v1/orders/${liveInvoice.id}`).expect(200)).body.collection_status).toBe(
      'current',
    );
  });

  it('refuses a day in the past, one more than 366 days ahead, and a value that is not a date', async () => {
    expectError(await test.post(RUN).send({ as_of: plus(utcToday(), -1) }), 400, 'parameter_invalid', {
      param: 'as_of',
    });
    expectError(await test.post(RUN).send({ as_of: plus(utcToday(), 367) }), 400, 'parameter_invalid', {
      param: 'as_of',
    });
    await test
      .post(RUN)
      .send({ as_of: plus(utcToday(), 366) })
      .expect(200);
    expectError(await test.post(RUN).send({ as_of: 'next week' }), 400, 'parameter_invalid', {
      param: 'as_of',
    });
  });
});
