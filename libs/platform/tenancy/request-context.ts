import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityProfile } from './entity-profile';

export type Mode = 'live' | 'test';

/** Who is calling: set by the auth guard for every authenticated request. */
export interface Caller {
  entityId: string;
  entityCode: string;
  livemode: boolean;
  apiKeyId: string;
  /** The calling key's name, when a key called (not for jobs and system work). */
  apiKeyName?: string | null;
  scopes: ReadonlySet<string>;
}

export interface RequestState {
  requestId: string;
  caller?: Caller;
  /** Values of the body's number literals that JSON parsing rounded (see json-limits.ts). */
  inexactNumbers?: ReadonlySet<number>;
  /** Entity profiles this request has read, by entity id (see EntityProfiles). */
  entityProfiles?: Map<string, EntityProfile>;
  /**
   * The product route this request runs, set only while a test run records event coverage
   * (libs/platform/events/event-coverage.ts).
   */
  origin?: string;
}

/** The key id of work no key asked for (the dispatcher's own events). */
export const SYSTEM_KEY_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Whom work without a request acts for: an entity and mode, with the key that asked for the work
 * (its id; SYSTEM_KEY_ID when no key did) and the scopes the work needs (none by default).
 */
export interface SystemCaller {
  entityId: string;
  /** The entity's code, where the work knows it (empty otherwise). */
  entityCode?: string;
  livemode: boolean;
  apiKeyId?: string;
  scopes?: readonly string[];
}

const storage = new AsyncLocalStorage<RequestState>();

export class MissingContextError extends Error {
  constructor(what: string) {
    super(`No ${what} in the current async context: tenant-scoped code ran outside a request or job scope`);
  }
}

/** The request context (entity, mode, key, scopes) held in AsyncLocalStorage. */
export const RequestContext = {
  run<T>(state: RequestState, fn: () => T): T {
    return storage.run(state, fn);
  },
  /** The state of the current request; undefined outside one. */
  state(): RequestState | undefined {
    return storage.getStore();
  },
  setCaller(caller: Caller): void {
    const state = storage.getStore();
    if (!state) throw new MissingContextError('request state');
    state.caller = caller;
  },
  /** The caller; throws where there is none, so no query can run unscoped by accident. */
  caller(): Caller {
    const caller = storage.getStore()?.caller;
    if (!caller) throw new MissingContextError('caller');
    return caller;
  },
  requestId(): string | undefined {
    return storage.getStore()?.requestId;
  },
  /**
   * Runs `fn` outside any request: what a request only sets going (a timer for batched
   * background writes) must not carry its id, caller or transaction into later work.
   */
  outsideRequest<T>(fn: () => T): T {
    return storage.exit(fn);
  },
  /**
   * Runs work without a request (a job, a schedule, a seed, an admin command) as `system`,
   * under `requestId` (the id its logs and events carry).
   */
  runAsSystem<T>(system: SystemCaller, fn: () => T, requestId = 'job'): T {
    const caller: Caller = {
      entityId: system.entityId,
      entityCode: system.entityCode ?? '',
      livemode: system.livemode,
      apiKeyId: system.apiKeyId ?? SYSTEM_KEY_ID,
      scopes: new Set(system.scopes ?? []),
    };
    return storage.run({ requestId, caller }, fn);
  },
};
