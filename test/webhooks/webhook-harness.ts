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
