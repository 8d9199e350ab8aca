import { AsyncLocalStorage } from 'node:async_hooks';

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
  /** Runs a job or script as a given caller (workers open their own scope). */
  runAs<T>(caller: Caller, fn: () => T, requestId = 'job'): T {
    return storage.run({ requestId, caller }, fn);
  },
};
