import http from 'node:http';
import { AddressInfo } from 'node:net';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { TestApp } from '../support/test-app';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** A real local HTTP receiver on 127.0.0.1, port 0; `reply` decides each answer. */
export async function startReceiver(
  reply: (req: ReceivedRequest, index: number) => Reply = () => ({ status: 200, body: 'ok' }),
) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(entry);
      const answer = reply(entry, received.length - 1);
      const send = () => res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    /** Connections open to the receiver now (a killed sender's close once the receiver has read what it sent). */
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Publishes events through the real outbox publisher, as the given entity and mode, in one transaction. */
export async function publishEvents(
  app: TestApp,
  scope: { entityId: string; livemode: boolean },
  events: { type: string; object: unknown }[],
) {
  const publisher = app.get(EventPublisher);
  const tx = app.get(TransactionHost);
  return RequestContext.runAsSystem(
    { entityId: scope.entityId, entityCode: 'qa1', livemode: scope.livemode },
    () =>
      tx.run(async () => {
        const ids: string[] = [];
        for (const e of events) ids.push(await publisher.publish(e.type, e.object));
        return ids;
      }),
  );
}

// Storage states and facts no route or repository shows or can produce: each helper says why it needs SQL.

/** The signing secret as stored. SQL: the point is the column's value at rest (the record shows it decrypted). */
export async function storedSecret(app: TestApp, endpointId: string): Promise<string> {
  const { rows } = await app.db.query<{ secret: string }>(
    `SELECT secret FROM webhook_endpoints WHERE id = $1`,
    [endpointId],
  );
  return rows[0].secret;
}

/**
 * How many stored endpoints, events and deliveries contain `text` anywhere. SQL: a scan of every
 * stored row, for a secret that must never be written in clear.
 */
export async function rowsContaining(app: TestApp, text: string): Promise<number> {
  const { rows } = await app.db.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM webhook_endpoints WHERE secret LIKE '%' || $1 || '%')
          + (SELECT count(*) FROM outbox_events WHERE data::text LIKE '%' || $1 || '%')
          + (SELECT count(*) FROM webhook_deliveries WHERE row_to_json(webhook_deliveries)::text LIKE '%' || $1 || '%') AS n`,
    [text],
  );
  return Number(rows[0].n);
}

/** An endpoint row from before secrets were encrypted (plaintext secret). SQL: a legacy state no route writes. */
export async function insertLegacyEndpoint(
  app: TestApp,
  entityId: string,
  plainSecret: string,
): Promise<string> {
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO webhook_endpoints (id, entity_id, livemode, url, enabled_events, secret)
     VALUES (gen_random_uuid(), $1, true, 'http://127.0.0.1:9/legacy', '{*}', $2) RETURNING id`,
    [entityId, plainSecret],
  );
  return rows[0].id;
}

/** Backdates events past retention and marks them dispatched. SQL: no route writes created_at. */
export async function backdateEvents(app: TestApp, eventIds: string[], days: number): Promise<void> {
  await app.db.query(
    `UPDATE outbox_events SET created_at = now() - make_interval(days => $2), dispatched_at = now() WHERE id = ANY($1::uuid[])`,
    [eventIds, days],
  );
}

/**
 * Pending deliveries of events, with no queue job (as if the jobs were lost), the events marked
 * dispatched so the dispatcher does not fan them out again. SQL: lost jobs are a fault no route
 * or service produces. Returns the delivery ids, in the order of `eventIds`.
 */
export async function orphanDeliveries(
  app: TestApp,
  target: { entityId: string; endpointId: string; eventType: string },
  eventIds: string[],
  { attemptCount = 0, dueSecondsAgo = 0 }: { attemptCount?: number; dueSecondsAgo?: number } = {},
): Promise<string[]> {
  await app.db.query(`UPDATE outbox_events SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [eventIds]);
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, entity_id, livemode, endpoint_id, event_id, event_type, status, attempt_count, next_retry_at)
     SELECT gen_random_uuid(), $1, true, $2, e, $3, 'pending', $4, now() - make_interval(secs => $5)
     FROM unnest($6::uuid[]) WITH ORDINALITY AS u(e, n) ORDER BY n RETURNING id`,
    [target.entityId, target.endpointId, target.eventType, attemptCount, dueSecondsAgo, eventIds],
  );
  return rows.map((r) => r.id);
}
