import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { RequestContext } from '../tenancy/request-context';

/** Where a run records what it covered: the test run's global setup sets it, production never does. */
export const EVENT_COVERAGE_DIR_ENV = 'EVENT_COVERAGE_DIR';

/** A committed event's type and the product work that committed it ('' for work outside the product). */
export interface CoverageRecord {
  type: string;
  origin: string;
}

/** One `type<TAB>origin` line of a coverage file. */
export const coverageLine = (record: CoverageRecord) => `${record.type}\t${record.origin}\n`;

/** The records of a coverage file's text. */
export function parseCoverageLines(text: string): CoverageRecord[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [type, origin = ''] = line.split('\t');
      return { type, origin };
    });
}

/**
 * The event coverage of a test run (docs/testing.md, "Event coverage"): which event types the
 * product's own work committed, and which of those events a test asserted. Switched on by
 * EVENT_COVERAGE_DIR, read once when this module loads; unset (production), every hook is one
 * test of a constant.
 *
 * Product work is a request to a route of the product's own modules (the API declares them with
 * declareProductModules; routes a test mounts next to them are not), or a job of a product queue
 * run by its processor through a BullMQ worker (runJob). An event counts once its transaction has
 * committed (TransactionHost.afterCommit): a rolled-back transaction or savepoint records nothing.
 * Events that a harness publishes itself, the QA seed's, and those of a service a test calls
 * directly have no product origin: they are recorded as such, and never count.
 *
 * Files, in the run directory: `<pid>.emitted` (each type and origin once per process, origin ''
 * outside product work) and `<pid>.asserted` (each type a test asserted through expectEvent, with
 * the origin of the event it asserted).
 */
export class EventCoverage {
  readonly on: boolean;
  private readonly productControllers = new WeakSet<object>();
  private readonly jobs = new AsyncLocalStorage<string>();
  /** The origin of every event product work committed in this process, by event id. */
  private readonly committedById = new Map<string, string>();
  private readonly written = new Set<string>();

  constructor(private readonly dir: string | undefined) {
    this.on = dir !== undefined && dir !== '';
  }

  /** Marks the controllers of `modules` and of every module they import as the product's routes. */
  declareProductModules(modules: readonly unknown[]): void {
    if (!this.on) return;
    const seen = new Set<unknown>();
    const visit = (entry: unknown): void => {
      let module = entry;
      if (module && typeof module === 'object' && 'forwardRef' in module)
        module = (module as { forwardRef: () => unknown }).forwardRef();
      if (!module || seen.has(module) || module instanceof Promise) return;
      seen.add(module);
      const dynamic =
        typeof module === 'object' && 'module' in module
          ? (module as { module: object; controllers?: object[]; imports?: unknown[] })
          : undefined;
      const type = (dynamic?.module ?? module) as object;
      const controllers: object[] = [
        ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) as object[] | undefined) ?? []),
        ...(dynamic?.controllers ?? []),
      ];
      for (const controller of controllers) this.productControllers.add(controller);
      const imports: unknown[] = [
        ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) as unknown[] | undefined) ?? []),
        ...(dynamic?.imports ?? []),
      ];
      imports.forEach(visit);
    };
    modules.forEach(visit);
  }

  /** The origin a request to this handler gives its events: undefined unless recording and a product route. */
  routeOrigin(controller: object, handler: { name: string }): string | undefined {
    if (!this.on || !this.productControllers.has(controller)) return undefined;
    return `route ${(controller as { name?: string }).name}.${handler.name}`;
  }

  /** Marks the current request as a request to the product route `origin` (see routeOrigin). */
  enterRoute(origin: string): void {
    const state = RequestContext.state();
    if (state) state.origin = origin;
  }

  /** Runs `fn` as the product job `origin`: what it commits counts. */
  runJob<T>(origin: string, fn: () => T): T {
    return this.jobs.run(origin, fn);
  }

  /** The product work running here: its route, else its job; undefined outside both. */
  origin(): string | undefined {
    return RequestContext.state()?.origin ?? this.jobs.getStore();
  }

  /** Called once the transaction of event `id` of `type` committed, with the origin it was built under. */
  committed(id: string, type: string, origin: string | undefined): void {
    if (!this.on) return;
    if (origin !== undefined) this.committedById.set(id, origin);
    this.append('emitted', { type, origin: origin ?? '' });
  }

  /** The product origin of an event this process committed; undefined when product work did not commit it here. */
  originOf(eventId: string): string | undefined {
    return this.committedById.get(eventId);
  }

  /** Records that a test asserted an event of `type` committed by the product work `origin`. */
  asserted(type: string, origin: string): void {
    if (this.on) this.append('asserted', { type, origin });
  }

  private append(kind: 'emitted' | 'asserted', record: CoverageRecord): void {
    const line = coverageLine(record);
    const key = `${kind}:${line}`;
    if (this.written.has(key)) return;
    this.written.add(key);
    appendFileSync(path.join(this.dir!, `${process.pid}.${kind}`), line);
  }
}

/** The process's recorder, on when the test run set EVENT_COVERAGE_DIR. */
export const eventCoverage = new EventCoverage(process.env[EVENT_COVERAGE_DIR_ENV]);
