import { Logger as NestLogger } from '@nestjs/common';
import { Writable } from 'node:stream';
import { createLogger, PinoNestLogger, prettyLine, routeConsoleToLogger } from './logger';

/** A pino logger writing into an array of raw lines. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  const logger = createLogger('trace', stream);
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const pgError = () => {
  const error = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
  });
  error.stack = `${error.stack}\n    at Parser.parseErrorMessage (pg-protocol/dist/parser.js:283:98)`;
  return error;
};

describe('log lines', () => {
  const flush = () => new Promise((r) => setImmediate(r));

  it("writes Nest's messages as one JSON object each, errors under err, never [object Object]", async () => {
    const { logger, lines, parsed } = capture();
    const nest = new PinoNestLogger(logger);
    const scoped = new NestLogger('ActivityLog');
    NestLogger.overrideLogger(nest);
    scoped.warn({ err: pgError() }, 'activity log connection failed');
    scoped.error('query failed', pgError().stack);
    scoped.error(pgError());
    scoped.log({ some: 'object' });
    nest.error({ err: pgError(), request_id: 'req_1' }, 'unhandled error', 'ApiExceptionFilter');
    NestLogger.overrideLogger(false);
    await flush();
    expect(lines).toHaveLength(5);
    expect(lines.join('\n')).not.toContain('[object Object]');
    const [warned, withStack, errorOnly, object, filtered] = parsed();
    expect(warned).toMatchObject({
      level: 40,
      context: 'ActivityLog',
      msg: 'activity log connection failed',
    });
    expect(warned.err).toMatchObject({ type: 'Error', code: '57P01', message: expect.any(String) });
    expect(String((warned.err as { stack: string }).stack)).toContain('parseErrorMessage');
    expect(withStack).toMatchObject({ level: 50, msg: 'query failed', context: 'ActivityLog' });
    expect(String(withStack.stack)).toContain('parseErrorMessage');
    expect(errorOnly).toMatchObject({
      msg: 'terminating connection due to administrator command',
      err: { code: '57P01' },
    });
    expect(object).toMatchObject({ some: 'object', msg: 'log' });
    expect(filtered).toMatchObject({
      context: 'ApiExceptionFilter',
      request_id: 'req_1',
      err: { code: '57P01' },
    });
  });

  it('routes console output (ioredis and driver warnings) into JSON lines', async () => {
    const { logger, lines, parsed } = capture();
    const restore = routeConsoleToLogger(logger);
    try {
      console.error('[ioredis] Unhandled error event:', pgError());
      console.warn('multi\nline');
    } finally {
      restore();
    }
    await flush();
    expect(lines).toHaveLength(2);
    const [first, second] = parsed();
    expect(first).toMatchObject({ level: 50, source: 'console', err: { code: '57P01' } });
    expect(first.msg).toContain('[ioredis] Unhandled error event');
    expect(second).toMatchObject({ level: 40, msg: 'multi\nline' });
  });

  it("logs Nest's module and route mapping lines at debug, its other messages at info", () => {
    const { logger, parsed } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/v1/orders, GET} route', 'RouterExplorer');
    nest.log('OrdersController {/v1/orders}:', 'RoutesResolver');
    nest.log('SalesCoreModule dependencies initialized', 'InstanceLoader');
    nest.log('Nest application successfully started', 'NestApplication');
    expect(parsed().map((l) => [l.level, l.context])).toEqual([
      [20, 'RouterExplorer'],
      [20, 'RoutesResolver'],
      [20, 'InstanceLoader'],
      [30, 'NestApplication'],
    ]);
  });

  it('prints a JSON line as time, level, message and fields for a terminal, with the stack below', () => {
    const time = Date.UTC(2026, 10, 27, 12, 4, 5);
    const line = JSON.stringify({
      level: 50,
      time,
      msg: 'request failed',
      reqId: 'r1',
      res: { status: 500 },
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    });
    expect(prettyLine(line)).toBe(
      '12:04:05 ERROR request failed  reqId=r1 res={"status":500}\n    Error: boom\n        at x\n',
    );
    expect(prettyLine('not json')).toBe('not json');
  });
});
