import type { TenantRecord } from '../persistence/columns';
import type { TenantRepository } from '../persistence/tenant-repository';
import type { TransactionHost } from '../persistence/transaction-host';
import type { EventPublisher } from './event-publisher';
import { deleteRecord, updateRecord } from './record-changes';

type Thing = TenantRecord & { name: string };

function setup() {
  const record = { id: 't1', name: 'old' } as Thing;
  const tx = { run: <T>(fn: () => Promise<T>) => fn() } as unknown as TransactionHost;
  const published: unknown[][] = [];
  const events = { publish: async (...args: unknown[]) => published.push(args) } as unknown as EventPublisher;
  const repo = {
    getForUpdate: async () => record,
    save: jest.fn(async (r: Thing) => r),
    delete: jest.fn(async () => undefined),
  };
  const present = (r: Thing) => ({ id: r.id, object: 'thing', name: r.name });
  return {
    record,
    tx,
    events,
    published,
    repo,
    typedRepo: repo as unknown as TenantRepository<Thing>,
    present,
  };
}

describe('updateRecord', () => {
  it.each([
    [
      'saves and publishes the previous attributes when the representation changed',
      'new',
      1,
      [{ name: 'old' }],
    ],
    ['answers the record as it was, with no write and no event, when nothing changed', 'old', 0, []],
  ])('%s', async (_case, name, saves, previous) => {
    const { tx, events, published, repo, typedRepo, present } = setup();
    const resource = await updateRecord(tx, events, typedRepo, 't1', {
      present,
      event: 'thing.updated',
      apply: (r) => void (r.name = name),
    });
    expect(resource).toEqual({ id: 't1', object: 'thing', name });
    expect(repo.save).toHaveBeenCalledTimes(saves);
    expect(published).toEqual(previous.map((p) => ['thing.updated', resource, p]));
  });
});

describe('deleteRecord', () => {
  it('deletes, publishes the last representation and answers the deletion object', async () => {
    const { tx, events, published, repo, typedRepo, present } = setup();
    const answer = await deleteRecord(tx, events, typedRepo, 't1', {
      present,
      event: 'thing.deleted',
      object: 'thing',
    });
    expect(answer).toEqual({ id: 't1', object: 'thing', deleted: true });
    expect(repo.delete).toHaveBeenCalledTimes(1);
    expect(published).toEqual([['thing.deleted', { id: 't1', object: 'thing', name: 'old' }]]);
  });

  it('writes nothing when the check refuses', async () => {
    const { tx, events, published, repo, typedRepo, present } = setup();
    const refusal = new Error('in use');
    await expect(
      deleteRecord(tx, events, typedRepo, 't1', {
        present,
        event: 'thing.deleted',
        object: 'thing',
        check: async () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(repo.delete).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });
});
