import type { Socket } from 'node:net';
import { PlatformError } from '../errors/domain-error';
import { renderError } from './error-envelope';
import { newRequestId } from './request-pipeline.middleware';

/** Node's parser and server errors that reach `clientError`, as contract errors. */
function contractErrorOf(error: NodeJS.ErrnoException): PlatformError | null {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new PlatformError('request_header_fields_too_large', {
        hint: 'The request line and headers together exceed 16 KB; send fewer or shorter headers.',
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new PlatformError('request_timeout', {
        hint: 'The request was not received completely in time; send it again.',
      });
    case 'ECONNRESET':
    case 'EPIPE':
      // The client went away: nobody to answer.
      return null;
    default:
      return new PlatformError('malformed_request', {
        hint: `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`,
      });
  }
}

/**
 * The raw response for an error Node raises before a request reaches the application (headers over
 * the parser's limit, a request that never completes, bytes that are not HTTP): the contract's
 * flat envelope with its own `Request-Id`, then the connection is closed, as Node itself does for
 * these errors. Without it Node answers a bare status line with no body.
 */
export function clientErrorResponse(error: NodeJS.ErrnoException): string | null {
  const contractError = contractErrorOf(error);
  if (!contractError) return null;
  const requestId = newRequestId();
  const { status, body } = renderError(contractError, requestId);
  const json = JSON.stringify(body);
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
    status
  ];
  return (
    `HTTP/1.1 ${status} ${reason ?? 'Bad Request'}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    `Request-Id: ${requestId}\r\n` +
    `Connection: close\r\n\r\n` +
    json
  );
}

/** `server.on('clientError', handleClientError)`. */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const response = socket.writable ? clientErrorResponse(error) : null;
  // A response already under way on this socket (a timeout after the app answered) is not
  // followed by a second one.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (response && !busy) socket.end(response);
  else socket.destroy();
}
