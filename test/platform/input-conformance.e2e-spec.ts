import { ledgerFixtures } from '../accounting/support/accounting-fixtures';
import { AccountRepository } from '#contexts/sales';
import { asEntity } from '../support/as-entity';
import { idempotencyRecords } from '../support/database';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Inputs that PostgreSQL or the runtime cannot take (NUL, lone surrogates, deep nesting,
 * over-precise money) and values of the wrong JSON type: each a 400 in the envelope naming the
 * parameter, with nothing written.
 */
describe('input conformance', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  /** The ids of every account in the list (first 100 are all there are in the QA entity). */
  const accountIds = async (): Promise<string[]> => {
    const res = await live.get('/v1/accounts?limit=100&include_deleted=true').expect(200);
    expect(res.body.has_more).toBe(false);
    return (res.body.data as { id: string }[]).map((a) => a.id).sort();
  };
  const journalEntryIds = async (): Promise<string[]> => {
    const res = await live.get('/v1/journal-entries?limit=100').expect(200);
    return (res.body.data as { id: string }[]).map((e) => e.id).sort();
  };
  /** Sends raw JSON text (so escapes such as \ud800 reach the server as written). */
  const postRaw = (path: string, text: string) =>
    live.post(path).set('Content-Type', 'application/json').send(text);

  it('refuses a NUL character in any string field, at any depth, and in a query', async () => {
    const before = await accountIds();
    const top = await live.post('/v1/accounts').send({ name: 'a\u0000b' });
    expectError(top, 400, 'parameter_invalid', { param: 'name', type: 'validation_error' });
    expect(top.body.hint).toMatch(/NUL/);

    const inMap = await live.post('/v1/accounts').send({ name: 'ok', metadata: { erp_ref: 'x\u0000' } });
    expectError(inMap, 400, 'parameter_invalid', { param: 'metadata.erp_ref' });
    const inKey = await live.post('/v1/accounts').send({ name: 'ok', metadata: { 'bad\u0000key': 'x' } });
    expectError(inKey, 400, 'parameter_invalid', { param: 'metadata.bad\u0000key' });
    expect(inKey.body.hint).toMatch(/key/);

    const fx = ledgerFixtures(app);
    const entriesBefore = await journalEntryIds();
    const nested = await live.post('/v1/journal-entries').send({
      entry_date: fx.openPeriod.start_date,
      lines: [
        { account_id: fx.accounts.expense, debit_amount: 5 },
        { account_id: fx.accounts.cash, credit_amount: 5, description: 'cash\u0000out' },
      ],
    });
    expectError(nested, 400, 'parameter_invalid', { param: 'lines[1].description' });
    expect(await journalEntryIds()).toEqual(entriesBefore);

    expectError(await live.get('/v1/accounts?email=a%00b'), 400, 'parameter_invalid', { param: 'email' });
    expect(await accountIds()).toEqual(before);
  });

  it('refuses a lone UTF-16 surrogate sent as a JSON escape', async () => {
    const before = await accountIds();
    const high = await postRaw('/v1/accounts', '{"name":"\\ud800"}');
    expectError(high, 400, 'parameter_invalid', { param: 'name' });
    expect(high.body.hint).toMatch(/surrogate/);
    expectError(await postRaw('/v1/accounts', '{"name":"x\\udc00y"}'), 400, 'parameter_invalid', {
      param: 'name',
    });
    expectError(
      await postRaw('/v1/accounts', '{"name":"ok","metadata":{"erp_ref":"\\ud83d"}}'),
      400,
      'parameter_invalid',
      { param: 'metadata.erp_ref' },
    );
    expect(await accountIds()).toEqual(before);

    // A proper surrogate pair (an emoji) is a valid character and is stored.
    const emoji = await postRaw('/v1/accounts', '{"name":"Caf\\u00e9 \\ud83d\\ude00"}').expect(201);
    expect(emoji.body.name).toBe('Café 😀');
  });

  it('refuses a body nested 50,000 levels deep (under 1 MiB) with 400, not a stack overflow', async () => {
    const before = await accountIds();
    const depth = 50_000;
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    expect(deep.length).toBeLessThan(1024 * 1024);
    const bare = await postRaw('/v1/accounts', deep);
    expectError(bare, 400, 'parameter_invalid');
    expect(bare.body.hint).toMatch(/32 levels/);
    const inField = await postRaw('/v1/accounts', `{"name":"deep","metadata":{"a":${deep}}}`);
    expectError(inField, 400, 'parameter_invalid');
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expectError(await postRaw('/v1/accounts', objects), 400, 'parameter_invalid');
    // The same request with an Idempotency-Key is refused before the key is recorded.
    expectError(
      await live
        .post('/v1/accounts')
        .set('Idempotency-Key', 'deep-1')
        .set('Content-Type', 'application/json')
        .send(deep),
      400,
      'parameter_invalid',
    );
    // 32 levels (the body object is level 1) pass the limit and reach the DTO's own rules; 33 do not.
    const nest = (objects: number) => '{"a":'.repeat(objects) + '1' + '}'.repeat(objects);
    expectError(
      await postRaw('/v1/accounts', `{"name":"at limit","z":${nest(31)}}`),
      400,
      'parameter_unknown',
      {
        param: 'z',
      },
    );
    const over = await postRaw('/v1/accounts', `{"name":"over limit","z":${nest(32)}}`);
    expectError(over, 400, 'parameter_invalid');
    expect(over.body.hint).toMatch(/32 levels/);
    expect(await accountIds()).toEqual(before);
    expect(await idempotencyRecords(app, 'deep-1')).toEqual([]);
  });

  it('refuses a money amount that a JSON number cannot carry exactly at 4 decimals', async () => {
    const before = await accountIds();
    const over = await postRaw('/v1/accounts', '{"name":"precise","credit_limit":123456789012345.6789}');
    expectError(over, 400, 'parameter_invalid', { param: 'credit_limit' });
    expect(over.body.hint).toMatch(/more significant digits than a JSON number carries/);
    expectError(
      await postRaw('/v1/accounts', '{"name":"precise","credit_limit":0.30000000000000001}'),
      400,
      'parameter_invalid',
      { param: 'credit_limit' },
    );
    const fx = ledgerFixtures(app);
    const entriesBefore = await journalEntryIds();
    expectError(
      await postRaw(
        '/v1/journal-entries',
        JSON.stringify({
          entry_date: fx.openPeriod.start_date,
          lines: [
            { account_id: fx.accounts.expense, debit_amount: 1 },
            { account_id: fx.accounts.cash, credit_amount: 1 },
          ],
        }).replace('"debit_amount":1', '"debit_amount":99999999999999.9999'),
      ),
      400,
      'parameter_invalid',
      { param: 'lines[0].debit_amount' },
    );
    expect(await journalEntryIds()).toEqual(entriesBefore);
    expect(await accountIds()).toEqual(before);

    // A literal that parses to exactly its own decimal is kept as written, also past 15 digits.
    const exact = await postRaw('/v1/accounts', '{"name":"exact","credit_limit":999999999999.9999}').expect(
      201,
    );
    expect(exact.body.credit_limit).toBe(999999999999.9999);
    // Stored exactly: the account record (its decimal, not a JSON number) through the repository.
    const stored = await asEntity(app, () => app.get(AccountRepository).getById(exact.body.id));
    expect(stored.creditLimit?.toFixed(4)).toBe('999999999999.9999');
    const big = await postRaw('/v1/accounts', '{"name":"big","credit_limit":999999999999999}').expect(201);
    expect(big.body.credit_limit).toBe(999999999999999);
  });

  it('names the expected JSON type before any length, format or range rule', async () => {
    const before = await accountIds();
    const name = await live.post('/v1/accounts').send({ name: 5 });
    expectError(name, 400, 'parameter_invalid', { param: 'name' });
    expect(name.body.hint).toBe('Invalid name: name must be a string, not an integer.');

    const email = await live.post('/v1/accounts').send({ name: 'typed', email: 42 });
    expectError(email, 400, 'parameter_invalid', { param: 'email' });
    expect(email.body.hint).toMatch(/email must be a string, not an integer/);

    const limit = await live.post('/v1/accounts').send({ name: 'typed', credit_limit: 'abc' });
    expectError(limit, 400, 'parameter_invalid', { param: 'credit_limit' });
    expect(limit.body.hint).toMatch(/credit_limit must be a number, not a string/);

    const metadata = await live.post('/v1/accounts').send({ name: 'typed', metadata: 'x' });
    expectError(metadata, 400, 'parameter_invalid', { param: 'metadata' });
    expect(metadata.body.hint).toMatch(/metadata must be an object, not a string/);

    const fx = ledgerFixtures(app);
    const line = await live.post('/v1/journal-entries').send({
      entry_date: fx.openPeriod.start_date,
      lines: [
        { account_id: 7, debit_amount: 1 },
        { account_id: fx.accounts.cash, credit_amount: 1 },
      ],
    });
    expectError(line, 400, 'parameter_invalid', { param: 'lines[0].account_id' });
    expect(line.body.hint).toMatch(/account_id must be a string, not an integer/);

    // A value of the right type still gets its own rule's message.
    const long = await live.post('/v1/accounts').send({ name: 'x'.repeat(201) });
    expectError(long, 400, 'parameter_invalid', { param: 'name' });
    expect(long.body.hint).toMatch(/shorter than or equal to 200 characters/);
    expect(await accountIds()).toEqual(before);
  });
});
