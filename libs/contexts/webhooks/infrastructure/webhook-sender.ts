import type dns from 'node:dns';
import http from 'node:http';
import type net from 'node:net';
import https from 'node:https';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { signatureHeader } from '../verifier';
import { deliverySlots } from './delivery-queue';

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
  /** The checked address to connect to (the URL's host is not resolved again). */
  pinned?: { address: string; family: 4 | 6 };
}

/** A `lookup` that answers every resolution with the pinned address (net.connect asks with or without `all`). */
export function pinnedLookup(pinned: { address: string; family: 4 | 6 }): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as net.LookupFunction;
}

/** The first `limit` bytes, cut back to a UTF-8 character boundary; NUL bytes (not storable in text) removed. */
export function truncateUtf8(bytes: Buffer, limit = RESPONSE_BODY_LIMIT): string {
  let cut = Math.min(limit, bytes.length);
  if (cut < bytes.length) while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString('utf8').split('\u0000').join('');
}

/**
 * Whether a request failed on a pooled keep-alive connection the receiver had already closed
 * (it closes idle connections on its own timer, which can fire as a request goes out). The
 * receiver never read such a request, so it goes again on another connection inside the same
 * attempt instead of being recorded as a failed attempt.
 */
function staleConnection(reusedSocket: boolean, answered: boolean, code: string | undefined): boolean {
  return reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE');
}

/**
 * One HTTP attempt: POST of the exact bytes that were signed, with a fresh timestamp, a 5 s
 * budget for the whole exchange, and no redirects followed (a 3xx is a failure). The connection
 * goes to the pinned address the resolver checked (TLS still verifies the URL's host name). Node's http
 * client with keep-alive agents: connections to a receiver are reused across attempts, and a
 * request that a reused connection lost before any answer is sent again (staleConnection).
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents: { http: http.Agent; https: https.Agent };

  /** Enough sockets per receiver for every request the dispatcher can have in flight: none waits for a socket inside its 5 s budget. */
  constructor(config: AppConfig) {
    const agentOptions = {
      keepAlive: true,
      maxSockets: Math.max(256, deliverySlots(config.WEBHOOK_DELIVERY_CONCURRENCY)),
    };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  /**
   * Closes the idle connections only: the requests in flight finish within their budget, as the
   * worker waits for its jobs, and are recorded. (An idle pooled connection does not hold the
   * process open.)
   */
  onApplicationShutdown(): void {
    for (const agent of [this.agents.http, this.agents.https])
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.destroy();
  }

  send(request: SignedRequest): Promise<SendResult> {
    const url = new URL(request.url);
    const body = Buffer.from(request.body, 'utf8');
    const headers = {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': 'ERP-Webhooks/1.0',
      'Service-Signature': signatureHeader(request.secret, body),
      'Service-Webhook-Id': request.endpointId,
      'Service-Event-Id': request.eventId,
      'Service-Event-Type': request.eventType,
      'Service-API-Version': request.apiVersion,
    };
    const secure = url.protocol === 'https:';
    const options: http.RequestOptions = {
      method: 'POST',
      headers,
      agent: secure ? this.agents.https : this.agents.http,
      ...(request.pinned ? { lookup: pinnedLookup(request.pinned) } : {}),
    };
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let req: http.ClientRequest;
      let response: http.IncomingMessage | undefined;
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const answered = (): SendResult => ({
        status: response!.statusCode ?? null,
        retryAfter: (response!.headers['retry-after'] as string | undefined) ?? null,
        body: truncateUtf8(Buffer.concat(chunks)),
        error: null,
      });
      /** The outcome of an exchange cut short: what the receiver answered, or `error` where it did not. */
      const cutShort = (error: string): SendResult =>
        response ? answered() : { status: null, retryAfter: null, body: null, error };
      // One budget for the whole exchange; a receiver that answered but streams forever keeps its status.
      const timer = setTimeout(() => {
        req.destroy();
        finish(cutShort(`timeout after ${DELIVERY_TIMEOUT_MS} ms`));
      }, DELIVERY_TIMEOUT_MS);
      const exchange = () => {
        req = (secure ? https : http).request(url, options, (res) => {
          response = res;
          res.on('data', (chunk: Buffer) => {
            if (kept <= RESPONSE_BODY_LIMIT) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          res.on('end', () => finish(answered()));
          res.on('error', () => finish(answered()));
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          // The agent drops a connection that failed, so this loop ends within the pool's size and the budget.
          if (!settled && staleConnection(req.reusedSocket, response !== undefined, error.code)) exchange();
          else finish(cutShort((error.code ?? error.message).slice(0, 500)));
        });
        req.end(body);
      };
      exchange();
    });
  }
}
