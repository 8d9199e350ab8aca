import { EventPublisher } from '#platform/events/event-publisher';
import { OutboxReader } from '#platform/events/outbox-reader';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Outbox rows gathered over a transaction are written by one INSERT just before COMMIT: all of
 * them when it commits, none when it rolls back, and none of a savepoint rolled back.
 */
describe('outbox rows gathered until commit', () => {
  let app: TestApp;
  let tx: TransactionHost;
  let events: EventPublisher;
  const statements: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    tx = app.get(TransactionHost);
    events = app.get(EventPublisher);
  });
  afterAll(() => app.close());

  const asSystem = <T>(fn: () => Promise<T>) =>
    RequestContext.runAsSystem({ entityId: app.seed.entities.primary.id, livemode: true }, fn);
  /** Those of `ids` that were written, in id order, through the outbox reader. */
  const stored = async (ids: string[]) => {
    const found = await asSystem(() => Promise.all(ids.map((id) => app.get(OutboxReader).findById(id))));
    return found
      .filter((e) => e !== null)
      .map((e) => e.id)
      .sort();
  };

  it('writes every event of a transaction with one statement at its end, in publish order', async () => {
    const ids: string[] = [];
    await asSystem(() =>
      tx.run(async (manager) => {
        const query = manager.query.bind(manager);
        manager.query = ((sql: string, params?: unknown[]) => {
          statements.push(sql);
          return query(sql, params);
        }) as typeof manager.query;
        ids.push(await events.publish('setting.tag.created', { id: 'a', object: 'tag' }));
        ids.push(await events.publish('setting.tag.updated', { id: 'a', object: 'tag' }));
        ids.push(...(await events.publishMany([{ type: 'setting.tag.deleted', object: { id: 'a' } }])));
        // Nothing is written before the work of the transaction is done.
        expect(statements).toEqual([]);
      }),
    );
    expect(statements.filter((s) => s.includes('INSERT INTO outbox_events'))).toHaveLength(1);
    expect(await stored(ids)).toEqual([...ids].sort());
  });

  it('writes nothing when the transaction rolls back', async () => {
    const ids: string[] = [];
    await expect(
      asSystem(() =>
        tx.run(async () => {
          ids.push(await events.publish('setting.tag.created', { id: 'b', object: 'tag' }));
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(await stored(ids)).toEqual([]);
  });

  it('drops the events of a savepoint rolled back and keeps the others', async () => {
    const kept: string[] = [];
    const dropped: string[] = [];
    await asSystem(() =>
      tx.run(async () => {
        kept.push(await events.publish('setting.tag.created', { id: 'c', object: 'tag' }));
        await expect(
          tx.savepoint('row', async () => {
            dropped.push(await events.publish('setting.tag.created', { id: 'd', object: 'tag' }));
            throw new Error('bad row');
          }),
        ).rejects.toThrow('bad row');
        await tx.savepoint('row', async () => {
          kept.push(await events.publish('setting.tag.created', { id: 'e', object: 'tag' }));
        });
      }),
    );
    expect(await stored([...kept, ...dropped])).toEqual([...kept].sort());
  });
});
