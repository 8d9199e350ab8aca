import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { SecretBox } from '#platform/crypto/secret-box';
import { AppMetrics } from '#platform/observability/metrics';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { afterPermanentFailure } from '../domain/endpoint';
import { SIGNING_SECRET_PURPOSE } from '../domain/signing-secret';
import {
  AttemptDecision,
  decideAfterAttempt,
  parseRetryAfter,
  parseRetryDelays,
} from '../domain/retry-schedule';
import { toEventEnvelope } from '../application/event.presenter';
import { toDeliveryResource } from '../application/webhook-delivery.presenter';
import { toEndpointResource } from '../application/webhook-endpoint.presenter';
import { ClaimedAttempt, DeliveryAttemptRepository } from '../infrastructure/delivery-attempt.repository';
import { EndpointHealthRepository } from '../infrastructure/endpoint-health.repository';
import { SendResult, WebhookSender } from '../infrastructure/webhook-sender';
import { SystemEvents } from './system-events';
import { DeliveryScheduler, TargetDecision, WebhookTargets } from '../application/delivery-ports';

/**
 * What the attempts of one batch share: each endpoint's secret opened once and each receiver
 * URL's host resolved once (the attempts go out together); nothing outlives the batch.
 */
interface BatchLookups {
  secrets: Map<string, string | Error>;
  targets: Map<string, Promise<TargetDecision>>;
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
    private readonly attempts: DeliveryAttemptRepository,
    private readonly endpoints: EndpointHealthRepository,
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
   * parallel, and each endpoint's successes recorded in one statement once that endpoint's
   * attempts are done (a slow receiver holds back only its own records). A row another
   * dispatcher is claiming at the same moment is skipped (SKIP LOCKED: no waiting, no deadlock
   * between overlapping batches); it is that dispatcher's. The batch's attempts share each
   * endpoint's opened secret and each URL's resolved address. Returns the number of attempts made.
   */
  async attemptBatch(deliveryIds: readonly string[]): Promise<number> {
    if (deliveryIds.length === 0) return 0;
    const claimed = await this.claim(deliveryIds);
    const lookups: BatchLookups = { secrets: new Map(), targets: new Map() };
    const byEndpoint = new Map<string, ClaimedAttempt[]>();
    for (const attempt of claimed) {
      const group = byEndpoint.get(attempt.endpoint_id);
      if (group) group.push(attempt);
      else byEndpoint.set(attempt.endpoint_id, [attempt]);
    }
    throwFirstRejection(
      await Promise.allSettled(
        [...byEndpoint.values()].map((attempts) => this.attemptForEndpoint(attempts, lookups)),
      ),
    );
    return claimed.length;
  }

  /** Sends one endpoint's attempts in parallel, records each failure as it comes and the successes together at the end. */
  private async attemptForEndpoint(
    attempts: readonly ClaimedAttempt[],
    lookups: BatchLookups,
  ): Promise<void> {
    const succeeded: { claimed: ClaimedAttempt; result: SendResult }[] = [];
    const outcomes = await Promise.allSettled(
      attempts.map(async (attempt) => {
        const started = process.hrtime.bigint();
        const result = await this.deliver(attempt, lookups);
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
    throwFirstRejection(outcomes);
  }

  private claim(deliveryIds: readonly string[]): Promise<ClaimedAttempt[]> {
    return this.attempts.claim(deliveryIds, this.config.WEBHOOK_CLAIM_LEASE_MS, DUE_SLACK_MS);
  }

  /** Sends one claimed attempt; undefined when it was cancelled instead (endpoint gone or disabled, event purged). */
  private async deliver(claimed: ClaimedAttempt, lookups: BatchLookups): Promise<SendResult | undefined> {
    if (claimed.deleted_at !== null || claimed.endpoint_status !== 'active') {
      await this.attempts.cancelClaimed(claimed, 'endpoint deleted or disabled');
      return undefined;
    }
    if (claimed.type === null) {
      await this.attempts.cancelClaimed(claimed, 'event no longer retained');
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
    const secret = this.openSecret(claimed.secret, lookups.secrets);
    if (secret instanceof Error) {
      // A secret sealed with a key SECRETS_KEY no longer lists: an operator error, retried later.
      return {
        status: null,
        retryAfter: null,
        body: null,
        error: `signing secret unreadable: ${secret.message}`,
      };
    }
    // Resolved once for the batch's attempts to this URL; the request connects to exactly the address checked.
    let resolving = lookups.targets.get(claimed.url);
    if (!resolving) {
      resolving = this.targets.resolve(claimed.url);
      lookups.targets.set(claimed.url, resolving);
    }
    const target = await resolving;
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

  /** The signing secret in clear (opened once per batch), or why it cannot be read. */
  private openSecret(sealed: string, opened: Map<string, string | Error>): string | Error {
    let secret = opened.get(sealed);
    if (secret === undefined) {
      try {
        secret = this.secrets.open(sealed, SIGNING_SECRET_PURPOSE);
      } catch (error) {
        secret = error as Error;
      }
      opened.set(sealed, secret);
    }
    return secret;
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
    await this.attempts.recordSuccesses(succeeded.map((s) => ({ claimed: s.claimed, response: s.result })));
  }

  /** Records a failed attempt: a retry on the schedule, or a permanent failure (counted against the endpoint). */
  private async record(
    claimed: ClaimedAttempt,
    result: SendResult,
    decision: Exclude<AttemptDecision, { outcome: 'succeeded' }>,
  ): Promise<void> {
    if (decision.outcome === 'retry') {
      const updated = await this.attempts.scheduleRetry(claimed, result, decision.delayMs);
      if (updated > 0)
        await this.queue.enqueue([
          { id: claimed.id, attempt: claimed.attempt_count + 1, delayMs: decision.delayMs },
        ]);
      return;
    }
    await this.tx.run(async () => {
      const updated = await this.attempts.recordPermanentFailure(claimed, result);
      if (updated === 0) return;
      const scope = { entityId: claimed.entity_id, livemode: claimed.livemode };
      if (decision.reason === 'exhausted') {
        const delivery = await this.attempts.deliveryById(claimed.id);
        await this.systemEvents.publish(scope, 'webhook.delivery.exhausted', toDeliveryResource(delivery));
      }
      const counted = await this.endpoints.countPermanentFailure(claimed.endpoint_id);
      if (!counted) return;
      const { state, disabled } = afterPermanentFailure(counted);
      if (disabled) {
        await this.endpoints.disable(claimed.endpoint_id, state);
        const endpoint = await this.endpoints.endpointById(claimed.endpoint_id);
        await this.systemEvents.publish(scope, 'webhook.endpoint.disabled', toEndpointResource(endpoint));
        this.logger.warn(
          `endpoint ${claimed.endpoint_id} disabled after ${state.consecutiveFailures} consecutive permanent failures`,
        );
      }
    });
  }
}

/** Rethrows the first error among settled promises (after every one of them has settled). */
function throwFirstRejection(outcomes: readonly PromiseSettledResult<unknown>[]): void {
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
}
