import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { ledgerFixtures, LedgerFixtures, trialBalance } from './support/accounting-fixtures';

describe('fixed assets', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;
  let accounts: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
    const list = (await live.get('/v1/accounting/ledger-accounts?limit=100').expect(200)).body.data as {
      id: string;
      code: string;
    }[];
    const byCode = (code: string) => list.find((a) => a.code === code)!.id;
    accounts = { asset: byCode('1500'), accumulated: byCode('1510'), expense: byCode('6100') };
  });
  afterAll(() => app.close());

  const year = () => fx.openPeriod.start_date.slice(0, 4);

  it('registers, depreciates, impairs, recovers and revalues an asset, posting each event', async () => {
    const asset = (
      await live
        .post('/v1/fixed_assets')
        .send({
          name: 'Forklift',
          cost: 12000,
          acquisition_date: `${year()}-01-01`,
          useful_life_months: 12,
          salvage_value: 0,
          asset_account_id: accounts.asset,
          depreciation_account_id: accounts.accumulated,
          expense_account_id: accounts.expense,
        })
        .expect(201)
    ).body;
    expect(asset).toMatchObject({
      object: 'fixed_asset',
      cost: 12000,
      net_book_value: 12000,
      depreciation_method: 'straight_line',
      max_recoverable: 0,
    });

    const dep = await live
      .post(`/v1/fixed_assets/${asset.id}/depreciate`)
      .send({ through_date: `${year()}-03-01` })
      .expect(200);
    expect(dep.body).toMatchObject({ months: 2, amount: 2000 });
    expect(dep.body.fixed_asset).toMatchObject({
      accumulated_depreciation: 2000,
      net_book_value: 10000,
      months_depreciated: 2,
    });
    const entry = (await live.get(`/v1/journal-entries/${dep.body.journal_entry_id}`).expect(200)).body;
    expect(entry).toMatchObject({
      source_type: 'DEPRECIATION',
      status: 'posted',
      approval_status: 'auto_approved',
      created_by_name: null,
      total_debit: 2000,
    });
    const again = await live
      .post(`/v1/fixed_assets/${asset.id}/depreciate`)
      .send({ through_date: `${year()}-03-01` })
      .expect(200);
    expect(again.body).toMatchObject({ months: 0, amount: 0, journal_entry_id: null });

    const impaired = await live
      .post(`/v1/fixed_assets/${asset.id}/impairments`)
      .send({ amount: 3000, reason: 'Damage', fair_value: 7000, event_date: `${year()}-03-02` })
      .expect(201);
    expect(impaired.body).toMatchObject({
      event_type: 'impairment',
      amount: 3000,
      previous_net_book_value: 10000,
      new_net_book_value: 7000,
      fair_value_at_event: 7000,
      reason: 'Damage',
      created_by_name: 'QA live',
    });
    expect(
      (await live.get(`/v1/journal-entries/${impaired.body.journal_entry_id}`).expect(200)).body.source_type,
    ).toBe('IMPAIRMENT');
    const tooMuch = await live
      .post(`/v1/fixed_assets/${asset.id}/recoveries`)
      .send({ amount: 3000.01, event_date: `${year()}-03-03` });
    expectError(tooMuch, 422, 'amount_exceeds_limit', { param: 'amount' });
    const recovered = await live
      .post(`/v1/fixed_assets/${asset.id}/recoveries`)
      .send({ amount: 1000, event_date: `${year()}-03-03` })
      .expect(201);
    expect(recovered.body).toMatchObject({
      event_type: 'recovery',
      previous_net_book_value: 7000,
      new_net_book_value: 8000,
    });
    expectError(
      await live.post(`/v1/fixed_assets/${asset.id}/impairments`).send({ amount: 9000 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount' },
    );
    const revalued = await live
      .post(`/v1/fixed_assets/${asset.id}/revaluations`)
      .send({ fair_value: 8500, event_date: `${year()}-03-03` })
      .expect(201);
    expect(revalued.body).toMatchObject({
      event_type: 'revaluation',
      amount: 500,
      new_net_book_value: 8500,
      fair_value_at_event: 8500,
    });

    const history = await live.get(`/v1/fixed_assets/${asset.id}/impairment_history`).expect(200);
    expect(history.body.total).toBe(3);
    expect(history.body.data.map((e: { event_type: string }) => e.event_type)).toEqual([
      'revaluation',
      'recovery',
      'impairment',
    ]);
    expect(history.body.summary).toEqual({
      total_impaired: 3000,
      total_recovered: 1000,
      net_impaired: 2000,
      max_recoverable: 2000,
    });
    expect(Object.keys(history.body.data[0]).sort()).toEqual(
      expect.arrayContaining([
        'id',
        'event_type',
        'event_date',
        'amount',
        'previous_net_book_value',
        'new_net_book_value',
        'fair_value_at_event',
        'reason',
        'journal_entry_id',
        'created_by_name',
      ]),
    );
    const events = await outbox(app).eventsOf(asset.id);
    expect(events.map((e) => e.type)).toEqual([
      'asset.created',
      'asset.depreciated',
      'asset.impaired',
      'asset.recovered',
      'asset.revalued',
    ]);
    // 12 000 over 12 months: two months take 2 000; then -3 000, +1 000, and up to the fair value 8 500.
    const nbv = [12000, 10000, 7000, 8000, 8500];
    const types = [
      'asset.created',
      'asset.depreciated',
      'asset.impaired',
      'asset.recovered',
      'asset.revalued',
    ];
    for (const [i, type] of types.entries())
      await expectEvent(app, type, {
        id: asset.id,
        object: 'fixed_asset',
        name: 'Forklift',
        cost: 12000,
        net_book_value: nbv[i],
      });
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('validates input and seeds an asset with an impairment and a recovery', async () => {
    expectError(await live.post('/v1/fixed_assets').send({ name: 'x' }), 400, 'parameter_missing');
    expectError(
      await live.post('/v1/fixed_assets').send({
        name: 'x',
        cost: 10,
        acquisition_date: '2026-01-01',
        useful_life_months: 0,
        asset_account_id: accounts.asset,
        depreciation_account_id: accounts.accumulated,
        expense_account_id: accounts.expense,
      }),
      400,
      'parameter_invalid',
      { param: 'useful_life_months' },
    );
    const seeded = app.seed.fixtures.fixed_asset_id as string;
    const history = (await live.get(`/v1/fixed_assets/${seeded}/impairment_history`).expect(200)).body;
    expect(history.data.map((e: { event_type: string }) => e.event_type).sort()).toEqual([
      'impairment',
      'recovery',
    ]);
    expect(history.summary.max_recoverable).toBe(1500);
    expect((await live.get('/v1/fixed_assets').expect(200)).body.data.length).toBeGreaterThan(0);
  });

  it('isolates entities and modes and needs assets scopes', async () => {
    const seeded = app.seed.fixtures.fixed_asset_id as string;
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(await api(app, key).get(`/v1/fixed_assets/${seeded}`), 404, 'not_found');
      expectError(await api(app, key).get(`/v1/fixed_assets/${seeded}/impairment_history`), 404, 'not_found');
      expectError(
        await api(app, key).post(`/v1/fixed_assets/${seeded}/impairments`).send({ amount: 1 }),
        404,
        'not_found',
      );
    }
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/fixed_assets/${seeded}/impairment_history`).expect(200);
    expectError(
      await readOnly.post(`/v1/fixed_assets/${seeded}/recoveries`).send({ amount: 1 }),
      403,
      'insufficient_scope',
      { required: 'assets:write' },
    );
  });
});
