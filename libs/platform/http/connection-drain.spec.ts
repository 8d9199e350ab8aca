import http from 'node:http';
import net from 'node:net';
import { ConnectionDrain } from './connection-drain';

/** A raw keep-alive connection: sends requests, reads answers, reports when the server closes it. */
class RawConnection {
  private readonly socket: net.Socket;
  private received = '';
  closedAt = 0;
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => (this.received += d));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }

  send(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  }

  /** Waits for the `n`th answer on the connection; its status line and headers, lower-cased. */
  async answer(n: number): Promise<string> {
    for (;;) {
      const answers = this.received.split(/(?=HTTP\/1\.1 )/).filter((a) => a.includes('\r\n\r\n'));
      if (answers.length >= n) return answers[n - 1].split('\r\n\r\n')[0].toLowerCase();
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

describe('ConnectionDrain', () => {
  let server: http.Server;
  let port: number;
  let drain: ConnectionDrain;
  const release: (() => void)[] = [];

  beforeEach(async () => {
    drain = new ConnectionDrain();
    // `/slow` answers when the test releases it; `/early` sends its headers, then waits likewise.
    server = http.createServer((req, res) => {
      if (req.url === '/fast') return void res.end('ok');
      if (req.url === '/early') res.writeHead(200, { 'Content-Length': '2' }).flushHeaders();
      release.push(() => res.end('ok'));
    });
    drain.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(() => {
    release.splice(0).forEach((r) => r());
    server.closeAllConnections();
  });

  it('closes idle connections at once, answers in-flight requests with Connection: close, then resolves', async () => {
    const idle = new RawConnection(port);
    idle.send('/fast');
    expect(await idle.answer(1)).toContain('connection: keep-alive');
    const busy = new RawConnection(port);
    busy.send('/fast');
    expect(await busy.answer(1)).toContain('connection: keep-alive');
    busy.send('/slow');
    while (release.length === 0) await new Promise((r) => setTimeout(r, 5));

    let drained = 0;
    const drainStarted = Date.now();
    const done = drain.drain().then(() => (drained = Date.now()));
    await idle.closed;
    expect(idle.closedAt - drainStarted).toBeLessThan(500);
    // A new connection is refused: the listener is closed.
    await expect(
      new Promise((resolve, reject) =>
        net.connect(port, '127.0.0.1').on('connect', resolve).on('error', reject),
      ),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await new Promise((r) => setTimeout(r, 100));
    expect(drained).toBe(0); // the request in flight holds the drain
    release.shift()!();
    const answer = await busy.answer(2);
    expect(answer).toMatch(/^http\/1\.1 200/);
    expect(answer).toContain('connection: close');
    await busy.closed;
    await done;
    expect(drained).toBeGreaterThan(0);
  });

  it('closes a connection whose answer had started with keep-alive when that answer ends', async () => {
    const early = new RawConnection(port);
    early.send('/early');
    expect(await early.answer(1)).toContain('connection: keep-alive');
    const done = drain.drain();
    await new Promise((r) => setTimeout(r, 100));
    expect(early.closedAt).toBe(0);
    release.shift()!();
    await early.closed;
    await done;
  });
});
