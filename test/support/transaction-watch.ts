import type { EntityManager } from 'typeorm';
import { RequestContext } from '#platform/tenancy/request-context';
import type { TestApp } from './test-app';

/** The pooled driver connection under a transaction's manager. */
export interface DriverConnection {
  pipeline: boolean;
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** Runs `fn` as the system caller of the app's primary entity, live mode. */
export const asPrimarySystem =
  (app: TestApp) =>
  <T>(fn: () => Promise<T>): Promise<T> =>
    RequestContext.runAsSystem({ entityId: app.seed.entities.primary.id, livemode: true }, fn);

/**
 * Records, on the transaction's driver connection, each statement sent (its first `words`
 * words) and, with `answers`, when it is answered or fails. Returns the function that puts the
 * connection back to its class's query (no own property left behind on a pooled client).
 */
export function watchConnection(
  manager: EntityManager,
  log: string[],
  { words = 3, answers = true }: { words?: number; answers?: boolean } = {},
): () => void {
  const connection = (manager.queryRunner as unknown as { databaseConnection: DriverConnection })
    .databaseConnection;
  const query = connection.query.bind(connection);
  connection.query = (text: string, values?: unknown[]) => {
    const head = text.trim().split(/\s+/).slice(0, words).join(' ');
    log.push(answers ? `sent ${head}` : head);
    const answer = query(text, values);
    if (answers)
      void answer.then(
        () => log.push(`answered ${head}`),
        () => log.push(`failed ${head}`),
      );
    return answer;
  };
  return () => {
    delete (connection as Partial<DriverConnection>).query;
  };
}
