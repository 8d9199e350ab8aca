import { combinedWrite } from './transaction-host';

describe('combinedWrite', () => {
  it('leaves out nulls, and answers null when nothing is left', () => {
    const write = { sql: 'DELETE FROM t WHERE id = $1', params: ['a'] };
    expect(combinedWrite([null, write, null])).toBe(write);
    expect(combinedWrite([null, null])).toBeNull();
    expect(combinedWrite([])).toBeNull();
  });

  it('passes a single write through unchanged', () => {
    const write = { sql: 'INSERT INTO t (a) VALUES ($1)', params: [1] };
    expect(combinedWrite([write])).toBe(write);
  });

  it('makes each write a WITH query, in order, with its parameters renumbered after the ones before', () => {
    const { sql, params } = combinedWrite([
      { sql: 'INSERT INTO a (x, y) SELECT * FROM unnest($1::int[], $2::text[])', params: [[1], ['p']] },
      { sql: 'UPDATE b SET x = $2 WHERE id = $1', params: ['id-1', 5] },
      { sql: 'DELETE FROM c WHERE id = $1 AND n > $10', params: ['c', 0, 0, 0, 0, 0, 0, 0, 0, 9] },
    ])!;
    expect(sql).toBe(
      'WITH w0 AS (INSERT INTO a (x, y) SELECT * FROM unnest($1::int[], $2::text[])),\n' +
        'w1 AS (UPDATE b SET x = $4 WHERE id = $3),\n' +
        'w2 AS (DELETE FROM c WHERE id = $5 AND n > $14) SELECT 1',
    );
    expect(params).toEqual([[1], ['p'], 'id-1', 5, 'c', 0, 0, 0, 0, 0, 0, 0, 0, 9]);
  });

  it('refuses dollar-quoted text, whose $n it could not tell from parameters', () => {
    expect(() =>
      combinedWrite([
        { sql: 'INSERT INTO a (x) VALUES ($1)', params: [1] },
        { sql: 'INSERT INTO b (x) VALUES ($$ $1 $$)', params: [] },
      ]),
    ).toThrow(/dollar-quoted/);
  });
});
