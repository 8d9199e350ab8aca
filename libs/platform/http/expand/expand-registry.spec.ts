import { RecordSource, references, ResourceRegistry } from './expand-registry';

describe('ResourceRegistry', () => {
  it('references() reads each <name>_id into <name>', () => {
    expect(references({ parent: 'ledger_account', journal_entry: 'journal_entry' })).toEqual({
      parent: { kind: 'reference', source: 'parent_id', target: 'parent', resource: 'ledger_account' },
      journal_entry: {
        kind: 'reference',
        source: 'journal_entry_id',
        target: 'journal_entry',
        resource: 'journal_entry',
      },
    });
  });

  it('registerRecords() loads through the source, presenting each record alone', async () => {
    const rows = [{ id: 'a', n: 1 }];
    type Row = (typeof rows)[number];
    const source: RecordSource<Row> = {
      async presentByIds<T extends { id: string }>(
        ids: readonly string[],
        present: (records: Row[]) => T[] | Promise<T[]>,
      ): Promise<Map<string, T>> {
        return new Map((await present(rows.filter((r) => ids.includes(r.id)))).map((t) => [t.id, t]));
      },
    };
    const present = jest.fn((r: { id: string; n: number }) => ({ id: r.id, value: r.n * 2 }));
    const registry = new ResourceRegistry();
    registry.registerRecords('thing', source, present, references({ owner: 'account' }));
    expect(registry.get('thing')?.fields).toEqual(references({ owner: 'account' }));
    expect(await registry.loadOne('thing', 'a')).toEqual({ id: 'a', value: 2 });
    expect(present.mock.calls).toEqual([[rows[0]]]);
  });
});
