import { EventPublisher } from '#platform/events/event-publisher';
import { OutboxReader } from '#platform/events/outbox-reader';
import type { EntityManager } from 'typeorm';
import { lateSetting, TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { startTestApp, TestApp } from '../support/test-app';
import { asPrimarySystem, watchConnection } from '../support/transaction-watch';

/**
 * Values taken as a transaction commits (TransactionHost.takeAtCommit): the taking statement
 * leaves with COMMIT ahead of the writes sent then, whose texts carry the value's token until the
 * server puts the value in; inside a joined run() the value is taken at once.
 */
describe('late values taken at commit', () => {
  let app: TestApp;
  let tx: TransactionHost;
  let events: EventPublisher;

  beforeAll(async () => {
    app = await startTestApp();
    tx = app.get(TransactionHost);
    events = app.get(EventPublisher);
  });
  afterAll(() => app.close());

  const asSystem = <T>(fn: () => Promise<T>) => asPrimarySystem(app)(fn);
  const stored = (id: string) => asSystem(() => app.get(OutboxReader).findById(id));

  /** A statement taking late value `name`: a text unique to its transaction. */
  const taking = (name: string, expression = `'V-' || txid_current()::text`): WriteStatement => ({
    sql: `SELECT value, set_config($1, value, true) FROM (SELECT ${expression} AS value) v`,
    params: [lateSetting(name)],
  });
  const valueOf = (rows: readonly Record<string, unknown>[]) => String(rows[0].value);

  /** Records the statements sent (their first two words). */
  const watch = (manager: EntityManager, log: string[]) =>
    watchConnection(manager, log, { words: 2, answers: false });

  it('sends the taking statement with COMMIT, ahead of the writes whose texts show the value', async () => {
    const log: string[] = [];
    let restore = () => undefined as unknown;
    let eventId = '';
    let text = '';
    let value: Promise<string> = Promise.resolve('');
    await asSystem(() =>
      tx.run(async (manager) => {
        restore = watch(manager, log);
        const late = await tx.takeAtCommit('test_value', taking('test_value'), valueOf);
        ({ text, value } = late);
        eventId = await events.publish('setting.tag.created', {
          id: 'tag_late',
          object: 'tag',
          name: `named after ${late.text}`,
        });
        expect(tx.lateText('x')).toContain(late.text);
        // Nothing is sent before the work of the transaction is done.
        expect(log).toEqual([]);
      }),
    );
    restore();
    expect(text).toMatch(/^late:[0-9a-f]{18}:test_value$/);
    const taken = await value;
    expect(taken).toMatch(/^V-\d+$/);
    expect(log).toEqual(['SELECT value,', 'INSERT INTO', 'COMMIT']);
    const event = await stored(eventId);
    expect((event!.data as { object: { name: string } }).object.name).toBe(`named after ${taken}`);
  });

  it('takes the value at once inside a run() that joined the transaction, and its texts show it', async () => {
    let eventId = '';
    let text = '';
    await asSystem(() =>
      tx.run(() =>
        tx.run(async () => {
          const late = await tx.takeAtCommit('test_value', taking('test_value'), valueOf);
          text = late.text;
          expect(await late.value).toBe(late.text);
          // No token to replace: texts already show the value.
          expect(tx.lateText('x')).toBe('x');
          eventId = await events.publish('setting.tag.created', {
            id: 'tag_late',
            object: 'tag',
            name: text,
          });
        }),
      ),
    );
    expect(text).toMatch(/^V-\d+$/);
    expect(((await stored(eventId))!.data as { object: { name: string } }).object.name).toBe(text);
  });

  it('rolls everything back and throws when the taking statement fails', async () => {
    let eventId = '';
    await expect(
      asSystem(() =>
        tx.run(async () => {
          await tx.takeAtCommit('test_value', taking('test_value', `(1 / 0)::text`), valueOf);
          eventId = await events.publish('setting.tag.created', { id: 'tag_late', object: 'tag' });
        }),
      ),
    ).rejects.toThrow(/division by zero/);
    expect(await stored(eventId)).toBeNull();
  });

  it('drops a value taken inside a savepoint rolled back, and refuses to take one twice', async () => {
    const log: string[] = [];
    let restore = () => undefined as unknown;
    await asSystem(() =>
      tx.run(async (manager) => {
        await tx
          .savepoint('late_value', async () => {
            await tx.takeAtCommit('test_value', taking('test_value'), valueOf);
            throw new Error('given up');
          })
          .catch(() => undefined);
        expect(tx.lateText('x')).toBe('x');
        await tx.takeAtCommit('other_value', taking('other_value'), valueOf);
        await expect(tx.takeAtCommit('other_value', taking('other_value'), valueOf)).rejects.toThrow(
          /already taken/,
        );
        await expect(tx.takeAtCommit('Bad-Name', taking('x'), valueOf)).rejects.toThrow(/plain identifier/);
        restore = watch(manager, log);
      }),
    );
    restore();
    // Only the value still taken leaves with COMMIT.
    expect(log).toEqual(['SELECT value,', 'COMMIT']);
  });

  it('calls afterCommit callbacks once COMMIT answered, never after a rollback or a dropped savepoint', async () => {
    const calls: string[] = [];
    let eventId = '';
    await asSystem(() =>
      tx.run(async () => {
        tx.afterCommit(() => calls.push('outer'));
        await tx.run(async () => tx.afterCommit(() => calls.push('joined')));
        await tx
          .savepoint('after_commit', async () => {
            tx.afterCommit(() => calls.push('dropped'));
            throw new Error('given up');
          })
          .catch(() => undefined);
        eventId = await events.publish('setting.tag.created', { id: 'tag_after', object: 'tag' });
        // Nothing is called while the transaction is open.
        expect(calls).toEqual([]);
      }),
    );
    // By the time it is called, what the transaction wrote is visible to others.
    expect(calls).toEqual(['outer', 'joined']);
    expect(await stored(eventId)).not.toBeNull();
    await expect(
      asSystem(() =>
        tx.run(async () => {
          tx.afterCommit(() => calls.push('rolled back'));
          throw new Error('failed');
        }),
      ),
    ).rejects.toThrow('failed');
    expect(calls).toEqual(['outer', 'joined']);
  });
});
