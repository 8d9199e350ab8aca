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
    const reads = [];
    for (let i = 0; i < 6; i++) reads.push((await live.get(`/v1/tags/${tag.id}`).expect(200)).body);
    expect(reads).toEqual(Array(6).fill(tag));
  });
});
