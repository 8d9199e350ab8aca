import type http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  /** Status of the first response, or 0 when none arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection before `waitMs`. */
  closed: boolean;
  /** ms from sending the head to the first response byte (or to giving up). */
  answeredAfterMs: number;
}

/**
 * Sends a request head and part of a body over a plain socket and keeps the socket open, as a
 * stalled or lying client would: resolves once the server answers and closes, or after `waitMs`.
 */
export function rawRequest(
  server: http.Server,
  head: string,
  body: string | Buffer = '',
  waitMs = 3000,
): Promise<RawResponse> {
  const { port } = server.address() as net.AddressInfo;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let answeredAt = 0;
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const [headPart, ...rest] = text.split('\r\n\r\n');
      const lines = headPart.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({
        status,
        headers,
        body: rest.join('\r\n\r\n'),
        closed,
        answeredAfterMs: (answeredAt || Date.now()) - started,
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (d) => {
      if (!answeredAt) answeredAt = Date.now();
      chunks.push(d);
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => undefined);
    socket.write(head.replace(/\n/g, '\r\n').replace(/\r\r\n/g, '\r\n'));
    if (body.length > 0) socket.write(body);
  });
}

/** JSON of a raw response's body, whether sent with a length or chunked. */
export function rawJson(res: RawResponse): Record<string, unknown> {
  const text = res.headers['transfer-encoding'] === 'chunked' ? dechunk(res.body) : res.body;
  return JSON.parse(text) as Record<string, unknown>;
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const i = rest.indexOf('\r\n');
    if (i < 0) break;
    const size = parseInt(rest.slice(0, i), 16);
    if (!size) break;
    out += rest.slice(i + 2, i + 2 + size);
    rest = rest.slice(i + 2 + size + 2);
  }
  return out;
}
