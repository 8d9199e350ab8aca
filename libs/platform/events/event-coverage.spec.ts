import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { RequestContext } from '../tenancy/request-context';
import { EventCoverage, parseCoverageLines } from './event-coverage';
import { describeEventCoverage, eventCoverageVerdict } from './event-coverage-verdict';

const CATALOG = ['order.created', 'order.deleted', 'invoice.paid', 'payment.succeeded', 'return.created'];
const route = (type: string) => ({ type, origin: `route OrdersController.${type}` });
const harness = (type: string) => ({ type, origin: '' });

describe('the event coverage check of a whole run', () => {
  it('passes when product work committed every type and a test asserted each', () => {
    const records = CATALOG.map(route);
    const verdict = eventCoverageVerdict(CATALOG, records, records);
    expect(verdict).toEqual({ notEmitted: [], outsideProductOnly: [], notAsserted: [] });
    expect(describeEventCoverage(verdict)).toBeNull();
  });

  it('fails naming the types only a harness, the seed or a test-only route committed', () => {
    const emitted = [
      ...['order.created', 'order.deleted', 'return.created'].map(route),
      // Published by a harness, and by the seed in another process: never product work.
      harness('invoice.paid'),
      harness('payment.succeeded'),
      harness('invoice.paid'),
      // Also committed outside product work, but product work committed it too: covered.
      harness('order.created'),
    ];
    const verdict = eventCoverageVerdict(
      CATALOG,
      emitted,
      emitted.filter((r) => r.origin !== ''),
    );
    expect(verdict.outsideProductOnly).toEqual(['invoice.paid', 'payment.succeeded']);
    expect(verdict.notEmitted).toEqual([]);
    expect(describeEventCoverage(verdict)).toMatch(
      /2 type\(s\) committed only outside product routes and jobs .*: invoice\.paid, payment\.succeeded/,
    );
  });

  it('fails naming a type product work committed but no test asserted', () => {
    const emitted = CATALOG.map(route);
    const asserted = CATALOG.filter((t) => t !== 'order.deleted').map(route);
    const verdict = eventCoverageVerdict(CATALOG, emitted, asserted);
    expect(verdict).toEqual({ notEmitted: [], outsideProductOnly: [], notAsserted: ['order.deleted'] });
    expect(describeEventCoverage(verdict)).toMatch(/asserted by no test \(expectEvent\): order\.deleted\./);
  });

  it('counts an assertion only of an event product work committed', () => {
    const emitted = CATALOG.map(route);
    const asserted = [...CATALOG.filter((t) => t !== 'return.created').map(route), harness('return.created')];
    expect(eventCoverageVerdict(CATALOG, emitted, asserted).notAsserted).toEqual(['return.created']);
  });

  it('names the types nothing committed, and lets only the allowed ones be missing', () => {
    const emitted = ['order.created', 'invoice.paid', 'return.created'].map(route);
    const verdict = eventCoverageVerdict(CATALOG, emitted, emitted, { notAsserted: ['invoice.paid'] });
    expect(verdict.notEmitted).toEqual(['order.deleted', 'payment.succeeded']);
    expect(
      eventCoverageVerdict(CATALOG, emitted, [route('order.created')], {
        notEmitted: ['order.deleted', 'payment.succeeded'],
        notAsserted: ['invoice.paid', 'return.created'],
      }),
    ).toEqual({ notEmitted: [], outsideProductOnly: [], notAsserted: [] });
  });
});

@Controller('product')
class ProductController {
  create() {}
}
@Controller('fixture')
class FixtureController {
  create() {}
}
@Module({ controllers: [ProductController] })
class InnerModule {}
@Module({ imports: [InnerModule] })
class OuterModule {}

describe('EventCoverage, the recorder of a test process', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'event-coverage-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const lines = (kind: string) =>
    parseCoverageLines(readFileSync(path.join(dir, `${process.pid}.${kind}`), 'utf8'));

  it('is off without a run directory: no origin, nothing recorded', () => {
    const off = new EventCoverage(undefined);
    off.declareProductModules([OuterModule]);
    expect(off.on).toBe(false);
    expect(off.routeOrigin(ProductController, ProductController.prototype.create)).toBeUndefined();
    off.committed('e1', 'order.created', 'route x');
    expect(off.originOf('e1')).toBeUndefined();
  });

  it('gives an origin to the routes of the declared modules and of the modules they import, not to others', () => {
    const coverage = new EventCoverage(dir);
    coverage.declareProductModules([{ module: OuterModule, imports: [] }]);
    expect(coverage.routeOrigin(ProductController, ProductController.prototype.create)).toBe(
      'route ProductController.create',
    );
    expect(coverage.routeOrigin(FixtureController, FixtureController.prototype.create)).toBeUndefined();
  });

  it('takes the origin from the request, else from the job, else none', () => {
    const coverage = new EventCoverage(dir);
    expect(coverage.origin()).toBeUndefined();
    expect(coverage.runJob('job sales/run-collections', () => coverage.origin())).toBe(
      'job sales/run-collections',
    );
    RequestContext.run({ requestId: 'r' }, () => {
      expect(coverage.origin()).toBeUndefined();
      coverage.enterRoute('route A.b');
      expect(coverage.origin()).toBe('route A.b');
      // A service a test calls as the system, inside nothing product: no origin.
      RequestContext.runAsSystem({ entityId: 'e', livemode: true }, () =>
        expect(coverage.origin()).toBeUndefined(),
      );
    });
  });

  it('records committed events by type and origin once, and knows the product events by id', () => {
    const coverage = new EventCoverage(dir);
    coverage.committed('e1', 'order.created', 'route A.b');
    coverage.committed('e2', 'order.created', 'route A.b');
    coverage.committed('e3', 'invoice.paid', undefined);
    coverage.asserted('order.created', 'route A.b');
    expect(lines('emitted')).toEqual([
      { type: 'order.created', origin: 'route A.b' },
      { type: 'invoice.paid', origin: '' },
    ]);
    expect(lines('asserted')).toEqual([{ type: 'order.created', origin: 'route A.b' }]);
    expect(coverage.originOf('e2')).toBe('route A.b');
    expect(coverage.originOf('e3')).toBeUndefined();
  });
});
