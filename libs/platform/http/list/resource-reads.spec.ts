import type { TenantRecord } from '../../persistence/columns';
import type { TenantRepository } from '../../persistence/tenant-repository';
import { allRecords, ResourceReads, type RecordSource } from './resource-reads';

interface Row {
  id: string;
  name: string;
}

class Things extends ResourceReads<Row, { id: string; object: 'thing'; name: string }, { limit?: number }> {
  constructor(source: RecordSource<Row, { limit?: number }>) {
    super(source, (row) => ({ id: row.id, object: 'thing', name: row.name }));
  }
}

describe('ResourceReads', () => {
  const rows = [
    { id: 't1', name: 'one' },
    { id: 't2', name: 'two' },
  ];

  it('answers a page of presented records in the list envelope, and one record by id', async () => {
    const source = {
      list: jest.fn().mockResolvedValue({ rows, has_more: true, total_count: 7 }),
      getById: jest.fn().mockResolvedValue(rows[1]),
    };
    const things = new Things(source);
    await expect(things.list({ limit: 2 }, '/v1/things')).resolves.toEqual({
      object: 'list',
      data: [
        { id: 't1', object: 'thing', name: 'one' },
        { id: 't2', object: 'thing', name: 'two' },
      ],
      has_more: true,
      url: '/v1/things',
      total_count: 7,
    });
    expect(source.list).toHaveBeenCalledWith({ limit: 2 }, '/v1/things');
    await expect(things.retrieve('t2')).resolves.toEqual({ id: 't2', object: 'thing', name: 'two' });
    expect(source.getById).toHaveBeenCalledWith('t2');
  });

  it('reads a repository whole, without filters', async () => {
    const repo = { page: jest.fn().mockResolvedValue({ rows, has_more: false }), getById: jest.fn() };
    const source = allRecords(repo as unknown as TenantRepository<TenantRecord>);
    await source.list({ limit: 5 }, '/v1/things');
    await source.getById('t1');
    expect(repo.page).toHaveBeenCalledWith({ limit: 5 }, { url: '/v1/things' });
    expect(repo.getById).toHaveBeenCalledWith('t1');
  });
});
