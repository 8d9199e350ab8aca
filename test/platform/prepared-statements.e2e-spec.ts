import { Client } from 'pg';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { preparedStatementsMarked } from '../support/database';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** A parameterised statement that runs often is prepared once per connection and keeps working. */
describe('prepared statements', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('prepares a statement on its third run and answers the same rows from the prepared one', async () => {
    const tx = app.get(TransactionHost);
    const text = `SELECT code FROM entities WHERE id = $1 AND 'prepared-statements-test' IS NOT NULL`;
    const { results, prepared } = await tx.run(async (manager) => {
      const results: unknown[] = [];
      for (let i = 0; i < 4; i++) results.push(await manager.query(text, [app.seed.entities.primary.id]));
      const prepared = await preparedStatementsMarked(manager, 'prepared-statements-test');
      return { results, prepared };
    });
    expect(results).toEqual(Array(4).fill([{ code: 'qa1' }]));
    expect(prepared).toEqual([text]);
  });

  it('serves repeated API reads through prepared statements with the same answers', async () => {
    const live = api(app, app.seed.entities.primary.keys.live);
    const tag = (await live.post('/v1/tags').send({ name: 'prepared' }).expect(201)).body;
    // The statements the pool's clients send by name (PreparingClient hands them to pg's query).
    const named: string[] = [];
    const original = Client.prototype.query;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args) {
      const config = args[0] as { name?: string; text?: string } | string;
      if (typeof config === 'object' && config.name && /FROM "?tags"?\b/.test(config.text ?? ''))
        named.push(config.name);
      return (original as (...a: unknown[]) => never).apply(this, args);
    });
    const reads = [];
    try {
      for (let i = 0; i < 6; i++) reads.push((await live.get(`/v1/tags/${tag.id}`).expect(200)).body);
    } finally {
      spy.mockRestore();
    }
    expect(reads).toEqual(Array(6).fill(tag));
    // From the third run of the text on, the read goes by its name.
    expect(named.length).toBeGreaterThanOrEqual(4);
    expect(new Set(named).size).toBe(1);
  });
});
