import { EventPublisher } from '#platform/events/event-publisher';
import { OutboxReader } from '#platform/events/outbox-reader';
import type { EntityManager } from 'typeorm';
import { PreparingClient } from '#platform/persistence/prepared-statements';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { together } from '#platform/persistence/together';
import { failOutboxEventsOfType } from '../support/db-faults';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { asPrimarySystem, DriverConnection, watchConnection } from '../support/transaction-watch';

/** What TransactionHost does as a transaction commits, on one app. */
describe('TransactionHost at commit', () => {
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

  /**
   * Outbox rows gathered over a transaction are written by one INSERT just before COMMIT: all of
   * them when it commits, none when it rolls back (or that INSERT fails), and none of a savepoint
   * rolled back.
   */
  describe('outbox rows gathered until commit', () => {
    /** Those of `ids` that were written, in id order, through the outbox reader. */
    const stored = async (ids: string[]) => {
      const found = await asSystem(() => Promise.all(ids.map((id) => app.get(OutboxReader).findById(id))));
      return found
        .filter((e) => e !== null)
        .map((e) => e.id)
        .sort();
    };

    /** Records when each statement is sent and answered; the pooled connection is pipelined. */
    const watch = (manager: EntityManager, log: string[]) => {
      // Pipelined: what is issued goes out at once, without waiting for the answers before it.
      expect(
        (manager.queryRunner as unknown as { databaseConnection: DriverConnection }).databaseConnection
          .pipeline,
      ).toBe(true);
      return watchConnection(manager, log);
    };

    it('writes every event of a transaction with one statement, just before COMMIT', async () => {
      const ids: string[] = [];
      const log: string[] = [];
      let restore = () => undefined as unknown;
      await asSystem(() =>
        tx.run(async (manager) => {
          restore = watch(manager, log);
          ids.push(await events.publish('setting.tag.created', { id: 'a', object: 'tag' }));
          ids.push(await events.publish('setting.tag.updated', { id: 'a', object: 'tag' }));
          ids.push(...(await events.publishMany([{ type: 'setting.tag.deleted', object: { id: 'a' } }])));
          // Nothing is written before the work of the transaction is done.
          expect(log).toEqual([]);
        }),
      );
      restore();
      // One INSERT, then COMMIT.
      expect(log).toEqual([
        'sent INSERT INTO outbox_events',
        'answered INSERT INTO outbox_events',
        'sent COMMIT',
        'answered COMMIT',
      ]);
      expect(await stored(ids)).toEqual([...ids].sort());
    });

    it('together() sends its statements without waiting, and the server runs them in that order', async () => {
      const log: string[] = [];
      let restore = () => undefined as unknown;
      const [, held] = await asSystem(() =>
        tx.run(async (manager) => {
          restore = watch(manager, log);
          return together([
            manager.query('SELECT pg_advisory_xact_lock($1)', [987654321]),
            manager.query(
              `SELECT count(*)::int AS n FROM pg_locks
                WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid = $1`,
              [987654321],
            ),
          ]);
        }),
      );
      restore();
      // The read behind the lock sees it held: the server ran them in the order they were issued.
      expect(held).toEqual([{ n: 1 }]);
      expect(log.slice(0, 4)).toEqual([
        'sent SELECT pg_advisory_xact_lock($1)',
        'sent SELECT count(*)::int AS',
        'answered SELECT pg_advisory_xact_lock($1)',
        'answered SELECT count(*)::int AS',
      ]);
    });

    it('sends START TRANSACTION with the first statement, without a round trip of its own', async () => {
      const log: string[] = [];
      const transactionConnection = new WeakSet<object>();
      const original = PreparingClient.prototype.query;
      const spy = jest.spyOn(PreparingClient.prototype, 'query').mockImplementation(function (
        this: PreparingClient,
        ...args: unknown[]
      ) {
        const text = typeof args[0] === 'string' ? args[0] : '';
        if (text === 'START TRANSACTION') transactionConnection.add(this);
        const answer = (original as (...a: unknown[]) => never).apply(this, args) as unknown;
        if (transactionConnection.has(this) && typeof (answer as Promise<unknown>)?.then === 'function') {
          const head = text.split(/\s+/).slice(0, 2).join(' ');
          log.push(`sent ${head}`);
          void (answer as Promise<unknown>).then(() => log.push(`answered ${head}`));
        }
        return answer as never;
      });
      try {
        const rows = await asSystem(() => tx.run((manager) => manager.query('SELECT $1::int AS n', [7])));
        expect(rows).toEqual([{ n: 7 }]);
      } finally {
        spy.mockRestore();
      }
      expect(log).toEqual([
        'sent START TRANSACTION',
        'sent SELECT $1::int',
        'answered START TRANSACTION',
        'answered SELECT $1::int',
        'sent COMMIT',
        'answered COMMIT',
      ]);
    });

    it("the pool's connections send statements issued together in one socket write", async () => {
      const client = new PreparingClient({ connectionString: app.databaseUrl, pipeline: true });
      await client.connect();
      try {
        const stream = (client as unknown as { connection: { stream: object } }).connection.stream;
        const write = jest.spyOn(stream as { _write: () => void }, '_write');
        const writev = jest.spyOn(stream as { _writev: () => void }, '_writev');
        // PreparingClient.query keeps pg's overloads out of its own signature: the answers are results.
        const query = (text: string, values?: unknown[]) =>
          (client as unknown as { query: (t: string, v?: unknown[]) => Promise<{ rows: unknown[] }> }).query(
            text,
            values,
          );
        const answers = await Promise.all([1, 2, 3].map((n) => query('SELECT $1::int AS n', [n])));
        expect(answers.map((a) => a.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
        // Three statements, one write (each would otherwise leave in a write of its own).
        expect(write.mock.calls.length + writev.mock.calls.length).toBe(1);
        // One issued alone still leaves.
        await expect(query('SELECT 4 AS n')).resolves.toMatchObject({ rows: [{ n: 4 }] });
      } finally {
        await client.end();
      }
    });

    it('rolls everything back and throws when a write sent before COMMIT fails', async () => {
      const ids: string[] = [];
      await expect(
        asSystem(() =>
          tx.run(async () => {
            ids.push(await events.publish('setting.tag.created', { id: 'f', object: 'tag' }));
            // A second set of gathered rows whose statement fails in the database.
            tx.gather<string>({}, async (rows, query) => void (await query('SELECT $1::uuid', rows))).push(
              'not-a-uuid',
            );
          }),
        ),
      ).rejects.toThrow(/invalid input syntax for type uuid/);
      expect(await stored(ids)).toEqual([]);
    });

    it('over HTTP: a failed events INSERT before COMMIT answers 500 and writes nothing of the request', async () => {
      const live = api(app, app.seed.entities.primary.keys.live);
      const name = `Outbox fault ${Date.now()}`;
      const fault = await failOutboxEventsOfType(app, 'setting.tag.created');
      try {
        expectError(await live.post('/v1/tags').send({ name }), 500, 'internal_error');
      } finally {
        await fault.remove();
      }
      const tags = (await live.get('/v1/tags?limit=100').expect(200)).body.data as { name: string }[];
      expect(tags.map((t) => t.name)).not.toContain(name);
      // The same request succeeds once the fault is gone.
      await live.post('/v1/tags').send({ name }).expect(201);
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

  describe('after commit', () => {
    const stored = (id: string) => asSystem(() => app.get(OutboxReader).findById(id));

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
});
