import { Injectable } from '@nestjs/common';
import { signatureHeader } from '../verifier';

export const DELIVERY_TIMEOUT_MS = 5_000;
export const RESPONSE_BODY_LIMIT = 500;

export interface SendResult {
  status: number | null;
  retryAfter: string | null;
  /** The first 500 bytes of the response body (cut at a character boundary). */
  body: string | null;
  error: string | null;
}

export interface SignedRequest {
  url: string;
  body: string;
  secret: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  apiVersion: string;
}

/** The first `limit` bytes, cut back to a UTF-8 character boundary; NUL bytes (not storable in text) removed. */
export function truncateUtf8(bytes: Buffer, limit = RESPONSE_BODY_LIMIT): string {
  let cut = Math.min(limit, bytes.length);
  if (cut < bytes.length) while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString('utf8').split('\u0000').join('');
}

async function readPrefix(response: Response, limit: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(Buffer.from(value));
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return Buffer.concat(chunks);
    }
  }
}

/**
 * One HTTP attempt: POST of the exact bytes that were signed, with a fresh timestamp, a 5 s
 * budget for the whole exchange, and no redirects followed (a 3xx is a failure).
 */
@Injectable()
export class WebhookSender {
  async send(request: SignedRequest): Promise<SendResult> {
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'ERP-Webhooks/1.0',
      'Service-Signature': signatureHeader(request.secret, request.body),
      'Service-Webhook-Id': request.endpointId,
      'Service-Event-Id': request.eventId,
      'Service-Event-Type': request.eventType,
      'Service-API-Version': request.apiVersion,
    };
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      let body: string | null = null;
      try {
        body = truncateUtf8(await readPrefix(response, RESPONSE_BODY_LIMIT));
      } catch {
        body = null;
      }
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body, error: null };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const name = (error as Error).name;
      const message = name === 'TimeoutError' || name === 'AbortError' ? `timeout after ${DELIVERY_TIMEOUT_MS} ms` : (cause?.code ?? cause?.message ?? String(error));
      return { status: null, retryAfter: null, body: null, error: message.slice(0, 500) };
    }
  }
}
