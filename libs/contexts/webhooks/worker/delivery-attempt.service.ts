import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '#platform/config/app-config';
import { SecretBox } from '#platform/crypto/secret-box';
import { AppMetrics } from '#platform/observability/metrics';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SIGNING_SECRET_PURPOSE } from '../domain/signing-secret';
import {
  AttemptDecision,
  AUTO_DISABLE_THRESHOLD,
  decideAfterAttempt,
  parseRetryAfter,
  parseRetryDelays,
} from '../domain/retry-schedule';
import { toEventEnvelope } from '../application/event.presenter';
import { toDeliveryResource } from '../application/webhook-delivery.presenter';
import { toEndpointResource } from '../application/webhook-endpoint.presenter';
import { WebhookDeliveryRecord } from '../infrastructure/webhook-delivery.entity';
import { WebhookEndpointRecord } from '../infrastructure/webhook-endpoint.entity';
import { SendResult, WebhookSender } from '../infrastructure/webhook-sender';
import { SystemEvents } from './system-events';
import { DeliveryScheduler, WebhookTargets } from '../application/delivery-ports';

interface ClaimedAttempt {
  id: string;
  entity_id: string;
  livemode: boolean;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  last_attempt: number | null;
  url: string;
  secret: string;
  endpoint_status: string;
  deleted_at: Date | null;
  type: string | null;
  api_version: string | null;
  data: Record<string, unknown> | null;
  event_created_at: Date | null;
  request_id: string | null;
}

/** Due-time slack for a job that fires a moment before the row's next_retry_at (clock differences). */
const DUE_SLACK_MS = 1_000;

/**
 * Makes delivery attempts. An attempt is claimed by a conditional UPDATE (pending, due,
 * not claimed by a live lease), so two dispatchers never send the same attempt; the outcome is
 * written only if the claim still holds (same attempt_count, still pending).
 */
@Injectable()
export class DeliveryAttemptService {
  private readonly logger = new Logger(DeliveryAttemptService.name);
  private readonly delays: number[];

  constructor(
    private readonly dataSource: DataSource,
    private readonly tx: TransactionHost,
    private readonly config: AppConfig,
    private readonly sender: WebhookSender,
    private readonly targets: WebhookTargets,
    private readonly queue: DeliveryScheduler,
    private readonly systemEvents: SystemEvents,
    private readonly secrets: SecretBox,
    private readonly metrics: AppMetrics,
  ) {
    this.delays = parseRetryDelays(config.WEBHOOK_RETRY_DELAYS_MS);
  }

  /** Attempts a delivery if it is due and unclaimed; returns false when there was nothing to do. */
  async attempt(deliveryId: string): Promise<boolean> {
    return (await this.attemptBatch([deliveryId])) > 0;
  }

  /**
   * Attempts every due, unclaimed delivery among `deliveryIds`: one claim query for the batch
   * (endpoint and event joined, so the secret is the one current at the claim), the requests in
   * parallel, and the successes recorded in one statement. A row another dispatcher is claiming
   * at the same moment is skipped (SKIP LOCKED: no waiting, no deadlock between overlapping
   * batches); it is that dispatcher's. Returns the number of attempts made.
   */
  async attemptBatch(deliveryIds: readonly string[]): Promise<number> {
    if (deliveryIds.length === 0) return 0;
    const claimed = await this.claim(deliveryIds);
    const succeeded: { claimed: ClaimedAttempt; result: SendResult }[] = [];
    const outcomes = await Promise.allSettled(
      claimed.map(async (attempt) => {
        const started = process.hrtime.bigint();
        const result = await this.deliver(attempt);
        if (!result) return;
        const decision = this.decide(attempt, result);
        this.metrics.deliveries.inc({ outcome: decision.outcome });
        this.metrics.deliveryDuration.observe(
          { outcome: decision.outcome },
          Number(process.hrtime.bigint() - started) / 1e9,
        );
        if (decision.outcome === 'succeeded') succeeded.push({ claimed: attempt, result });
        else await this.record(attempt, result, decision);
      }),
    );
    await this.recordSuccesses(succeeded);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    return claimed.length;
  }

  private async claim(deliveryIds: readonly string[]): Promise<ClaimedAttempt[]> {
    return (await this.dataSource.query(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE id = ANY($1::uuid[]) AND status = 'pending' AND next_retry_at <= now() + $3 * interval '1 millisecond'
            AND (claimed_until IS NULL OR claimed_until < now())
          FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d
            SET attempt_count = d.attempt_count + 1, claimed_until = now() + $2 * interval '1 millisecond',
                updated_at = now(), version = d.version + 1
           FROM due WHERE d.id = due.id
          RETURNING d.id, d.entity_id, d.livemode, d.endpoint_id, d.event_id, d.attempt_count, d.last_attempt)
       SELECT c.*, e.url, e.secret, e.status AS endpoint_status, e.deleted_at,
              o.type, o.api_version, o.data, o.created_at AS event_created_at, o.request_id
         FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id LEFT JOIN outbox_events o ON o.id = c.event_id`,
      [deliveryIds, this.config.WEBHOOK_CLAIM_LEASE_MS, DUE_SLACK_MS],
    )) as ClaimedAttempt[];
  }

  /** Sends one claimed attempt; undefined when it was cancelled instead (endpoint gone or disabled, event purged). */
  private async deliver(claimed: ClaimedAttempt): Promise<SendResult | undefined> {
    if (claimed.deleted_at !== null || claimed.endpoint_status !== 'active') {
      await this.finish(claimed, `status = 'cancelled', next_retry_at = NULL, error = $3`, [
        'endpoint deleted or disabled',
      ]);
      return undefined;
    }
    if (claimed.type === null) {
      await this.finish(claimed, `status = 'cancelled', next_retry_at = NULL, error = $3`, [
        'event no longer retained',
      ]);
      return undefined;
    }

    const body = JSON.stringify(
      toEventEnvelope({
        id: claimed.event_id,
        type: claimed.type,
        createdAt: claimed.event_created_at!,
        apiVersion: claimed.api_version!,
        entityId: claimed.entity_id,
        livemode: claimed.livemode,
        data: claimed.data!,
        requestId: claimed.request_id,
      }),
    );
    let secret: string;
    try {
      secret = this.secrets.open(claimed.secret, SIGNING_SECRET_PURPOSE);
    } catch (error) {
      // A secret sealed with a key SECRETS_KEY no longer lists: an operator error, retried later.
      return {
        status: null,
        retryAfter: null,
        body: null,
        error: `signing secret unreadable: ${(error as Error).message}`,
      };
    }
    // Resolved once for this attempt; the request connects to exactly the address checked.
    const target = await this.targets.resolve(claimed.url);
    return 'refusal' in target
      ? { status: null, retryAfter: null, body: null, error: `target refused: ${target.refusal}` }
      : this.sender.send({
          pinned: target.pinned,
          url: claimed.url,
          body,
          secret,
          endpointId: claimed.endpoint_id,
          eventId: claimed.event_id,
          eventType: claimed.type,
          apiVersion: claimed.api_version!,
        });
  }

  private decide(claimed: ClaimedAttempt, result: SendResult): AttemptDecision {
    return decideAfterAttempt(
      { status: result.status, retryAfterMs: parseRetryAfter(result.retryAfter) },
      claimed.attempt_count,
      this.delays,
      { lastAttempt: claimed.last_attempt },
    );
  }

  /** Records successful attempts in one statement (each only while its claim holds) and resets their endpoints' failure counters. */
  private async recordSuccesses(
    succeeded: readonly { claimed: ClaimedAttempt; result: SendResult }[],
  ): Promise<void> {
    if (succeeded.length === 0) return;
    await this.dataSource.query(
      `WITH r AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[]) AS t(id, attempt_count, response_status, response_body)),
       d AS (
         UPDATE webhook_deliveries w
            SET status = 'succeeded', delivered_at = now(), next_retry_at = NULL, claimed_until = NULL,
                response_status = r.response_status, response_body = r.response_body, error = NULL,
                updated_at = now(), version = w.version + 1
           FROM r
          WHERE w.id = r.id AND w.attempt_count = r.attempt_count AND w.status = 'pending'
          RETURNING w.endpoint_id)
       UPDATE webhook_endpoints SET consecutive_failures = 0
        WHERE id IN (SELECT endpoint_id FROM d) AND consecutive_failures <> 0`,
      [
        succeeded.map((s) => s.claimed.id),
        succeeded.map((s) => s.claimed.attempt_count),
        succeeded.map((s) => s.result.status),
        succeeded.map((s) => s.result.body),
      ],
    );
  }

  private async finish(claimed: ClaimedAttempt, set: string, params: unknown[]): Promise<number> {
    const result = (await this.dataSource.query(
      `UPDATE webhook_deliveries SET ${set}, claimed_until = NULL, updated_at = now(), version = version + 1
        WHERE id = $1 AND attempt_count = $2 AND status = 'pending'`,
      [claimed.id, claimed.attempt_count, ...params],
    )) as [unknown[], number];
    return result[1];
  }

  /** Records a failed attempt: a retry on the schedule, or a permanent failure (counted against the endpoint). */
  private async record(
    claimed: ClaimedAttempt,
    result: SendResult,
    decision: Exclude<AttemptDecision, { outcome: 'succeeded' }>,
  ): Promise<void> {
    const response = [result.status, result.body, result.error];
    if (decision.outcome === 'retry') {
      const updated = await this.finish(
        claimed,
        `next_retry_at = now() + $6 * interval '1 millisecond', failed_at = now(), response_status = $3, response_body = $4, error = $5`,
        [...response, decision.delayMs],
      );
      if (updated > 0)
        await this.queue.enqueue([
          { id: claimed.id, attempt: claimed.attempt_count + 1, delayMs: decision.delayMs },
        ]);
      return;
    }
    await this.tx.run(async (m) => {
      const [, updated] = (await m.query(
        `UPDATE webhook_deliveries
            SET status = 'failed', failed_at = now(), next_retry_at = NULL, claimed_until = NULL,
                response_status = $3, response_body = $4, error = $5, updated_at = now(), version = version + 1
          WHERE id = $1 AND attempt_count = $2 AND status = 'pending'`,
        [claimed.id, claimed.attempt_count, ...response],
      )) as [unknown[], number];
      if (updated === 0) return;
      const scope = { entityId: claimed.entity_id, livemode: claimed.livemode };
      if (decision.reason === 'exhausted') {
        const delivery = await m.findOneByOrFail(WebhookDeliveryRecord, { id: claimed.id });
        await this.systemEvents.publish(scope, 'webhook.delivery.exhausted', toDeliveryResource(delivery));
      }
      const [counted] = (await m.query(
        `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, status`,
        [claimed.endpoint_id],
      )) as [{ consecutive_failures: number; status: string }[], number];
      const counter = counted[0];
      if (counter && counter.consecutive_failures >= AUTO_DISABLE_THRESHOLD && counter.status === 'active') {
        await m.query(
          `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'consecutive_failures', updated_at = now(), version = version + 1
            WHERE id = $1`,
          [claimed.endpoint_id],
        );
        await m.query(
          `UPDATE webhook_deliveries SET status = 'cancelled', next_retry_at = NULL, updated_at = now(), version = version + 1
            WHERE endpoint_id = $1 AND status = 'pending'`,
          [claimed.endpoint_id],
        );
        const endpoint = await m.findOneByOrFail(WebhookEndpointRecord, { id: claimed.endpoint_id });
        await this.systemEvents.publish(scope, 'webhook.endpoint.disabled', toEndpointResource(endpoint));
        this.logger.warn(
          `endpoint ${claimed.endpoint_id} disabled after ${counter.consecutive_failures} consecutive permanent failures`,
        );
      }
    });
  }
}
