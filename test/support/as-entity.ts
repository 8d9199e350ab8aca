import { RequestContext } from '#platform/tenancy/request-context';
import type { TestApp } from './test-app';

export interface AsEntityOptions {
  /** The seeded entity to act for (default the primary). */
  entity?: 'primary' | 'secondary';
  /** Live mode unless false. */
  livemode?: boolean;
  /** The scopes the work holds (default every scope). */
  scopes?: readonly string[];
}

/**
 * Runs `fn` as work without a request (RequestContext.runAsSystem) for a seeded entity: how a
 * test calls an application service directly, as a job or another context would.
 */
export function asEntity<T>(app: TestApp, fn: () => T, options: AsEntityOptions = {}): T {
  const entity = app.seed.entities[options.entity ?? 'primary'];
  return RequestContext.runAsSystem(
    {
      entityId: entity.id,
      entityCode: entity.code,
      livemode: options.livemode ?? true,
      scopes: options.scopes ?? ['*'],
    },
    fn,
    'test',
  );
}
