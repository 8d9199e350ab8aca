import { CREATED_TIME_FILTERS, listFilters } from './list-filters';

interface Query {
  status?: string;
  active?: boolean;
  date_from?: string;
  created_after?: string;
  created_before?: string;
}

describe('listFilters', () => {
  it('turns the parameters given into column conditions, equalities first', () => {
    const query: Query = { date_from: '2026-11-01', status: 'open', active: false };
    expect(
      listFilters(query, { equal: ['status', 'active'], where: { date_from: 'posted_on >= ?' } }),
    ).toEqual([
      { sql: 'status = ?', value: 'open' },
      { sql: 'active = ?', value: false },
      { sql: 'posted_on >= ?', value: '2026-11-01' },
    ]);
  });

  it('leaves out the parameters the query does not give', () => {
    expect(listFilters<Query>({}, { equal: ['status', 'active'], where: CREATED_TIME_FILTERS })).toEqual([]);
  });

  it('reads created_after from the millisecond after the shown time, created_before strictly', () => {
    const query: Query = {
      created_after: '2026-11-01T10:00:00.123Z',
      created_before: '2026-11-02T00:00:00.000Z',
    };
    expect(listFilters(query, { where: CREATED_TIME_FILTERS })).toEqual([
      { sql: 'created_at >= ?', value: new Date('2026-11-01T10:00:00.124Z') },
      { sql: 'created_at < ?', value: new Date('2026-11-02T00:00:00.000Z') },
    ]);
  });
});
