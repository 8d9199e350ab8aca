import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Graceful shutdown of HTTP listeners behind keep-alive clients and load balancers. Once
 * `drain()` is called:
 * - the listeners stop accepting connections, and connections idle between two requests are
 *   closed at once (nothing is lost: no request is being read or answered on them);
 * - every response not yet started carries `Connection: close`, those in flight included, so
 *   a client or balancer learns from the answer itself to send its next request elsewhere, and
 *   the connection closes once that answer is sent;
 * - a response whose headers had already gone out with keep-alive closes its connection when
 *   it ends (the connection is then idle and closed as above).
 * `drain()` resolves once every connection of the listeners has closed, that is once the
 * requests in flight have been answered.
 */
export class ConnectionDrain {
  private draining = false;
  private readonly servers: Server[] = [];
  /** Responses of requests read and not yet finished. */
  private readonly inFlight = new Set<ServerResponse>();

  /** Follows the requests of `server`; call before it serves any. */
  watch(server: Server): this {
    this.servers.push(server);
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight.add(res);
      if (this.draining) this.closeAfter(res);
      res.once('close', () => {
        this.inFlight.delete(res);
        // The connection may now be idle: it has no answer left to give.
        if (this.draining) setImmediate(() => server.closeIdleConnections());
      });
    });
    return this;
  }

  /** Starts draining (see the class); resolves once every connection has closed. */
  async drain(): Promise<void> {
    this.draining = true;
    for (const res of this.inFlight) this.closeAfter(res);
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            // close() stops accepting and closes idle connections; its callback runs once the
            // last connection has closed (or at once when the listener was not listening).
            server.close(() => resolve());
            server.closeIdleConnections();
          }),
      ),
    );
  }

  private closeAfter(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  }
}
