import type { Socket } from 'node:net';
import type { Request, Response } from 'express';

/**
 * How long a connection stays open after an answer sent before its request body was read:
 * what still arrives meanwhile is read and dropped.
 */
export const LINGER_AFTER_ANSWER_MS = 2000;

const lingering = new WeakSet<Socket>();

/**
 * Answers a request whose body is left unread with `Connection: close`, and closes the
 * connection without losing that answer.
 *
 * Node destroys a `Connection: close` socket as soon as its answer is written. A client still
 * sending the body then writes into a closed socket: the server's kernel resets the connection
 * and the client's next write fails (EPIPE), usually before it has read the answer already
 * waiting for it. A client uploading 30 MB at network speed saw a broken pipe instead of the
 * 413. Here the answer is followed by the end of the server's side of the stream (FIN), the
 * rest of the body is read and dropped, and the socket is destroyed when the client closes or
 * `LINGER_AFTER_ANSWER_MS` after the answer, whichever comes first.
 */
export function closeAfterAnswer(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  const socket = res.socket ?? req.socket;
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  // Node's HTTP server closes a `Connection: close` socket through `destroySoon` once the
  // answer is finished: this socket ends its side and lingers instead.
  (socket as Socket & { destroySoon: () => void }).destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_AFTER_ANSWER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // Whatever was reading the body (a route's stream) has stopped: the rest flows and is dropped.
    req.removeAllListeners('readable');
    req.removeAllListeners('data');
    req.resume();
  };
}
