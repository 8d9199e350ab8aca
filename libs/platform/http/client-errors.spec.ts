import { clientErrorResponse } from './client-errors';

const errorOf = (code: string) => Object.assign(new Error(code), { code });

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body: JSON.parse(body) as Record<string, unknown> };
}

describe('responses to errors raised before a request reaches the app', () => {
  it.each([
    [
      'HPE_HEADER_OVERFLOW',
      'HTTP/1.1 431 Request Header Fields Too Large',
      'request_header_fields_too_large',
    ],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'HTTP/1.1 408 Request Timeout', 'request_timeout'],
    ['HPE_INVALID_METHOD', 'HTTP/1.1 400 Bad Request', 'malformed_request'],
  ])('%s is answered in the envelope with its own Request-Id', (code, statusLine, contractCode) => {
    const raw = clientErrorResponse(errorOf(code));
    expect(raw).not.toBeNull();
    const res = parse(raw!);
    expect(res.statusLine).toBe(statusLine);
    expect(res.headers['request-id']).toMatch(/^req_/);
    expect(res.headers.connection).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(raw!.split('\r\n\r\n')[1]));
    expect(res.body).toMatchObject({
      error: contractCode,
      code: contractCode,
      request_id: res.headers['request-id'],
    });
  });

  it('does not answer a client that went away', () => {
    expect(clientErrorResponse(errorOf('ECONNRESET'))).toBeNull();
    expect(clientErrorResponse(errorOf('EPIPE'))).toBeNull();
  });
});
