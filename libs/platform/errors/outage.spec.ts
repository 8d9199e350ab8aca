import { isOutageError } from './outage';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isOutageError', () => {
  it.each([
    ['a refused TCP connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset socket', withCode('read ECONNRESET', 'ECONNRESET')],
    ['node-postgres losing the server', new Error('Connection terminated unexpectedly')],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    ['admin shutdown (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['cannot connect now (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    [
      'a database closed to connections',
      withCode('database "x" is not currently accepting connections', '55000'),
    ],
    ['ioredis with the connection closed', new Error('Connection is closed.')],
    [
      'ioredis giving up',
      Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    [
      "TypeORM's QueryFailedError wrapping a lost connection",
      Object.assign(new Error('Connection terminated'), {
        name: 'QueryFailedError',
        driverError: withCode('x', '57P01'),
      }),
    ],
    [
      "TypeORM's released query runner (the transaction's connection was lost)",
      Object.assign(
        new Error(
          'Database connection provided by a query runner was already released, cannot continue to use its querying methods anymore.',
        ),
        { name: 'QueryRunnerProviderAlreadyReleasedError' },
      ),
    ],
    [
      'an error caused by a refused connection',
      new Error('lookup failed', { cause: withCode('x', 'ECONNREFUSED') }),
    ],
    [
      'an AggregateError of refused connections',
      new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], 'x'),
    ],
  ])('recognises %s', (_name, error) => {
    expect(isOutageError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "x"', '42601')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
    [
      'a QueryFailedError of a check violation',
      Object.assign(new Error('violates check'), { driverError: withCode('x', '23514') }),
    ],
  ])('does not take %s for an outage', (_name, error) => {
    expect(isOutageError(error)).toBe(false);
  });
});
