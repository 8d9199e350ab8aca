import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { WebhookDeliveryRecord } from './webhook-delivery.entity';

/** A delivery as its claim returns it: the attempt, its endpoint's URL, secret and state, and its event. */
export interface ClaimedAttempt {
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

/** What the receiver answered an attempt: a status and body, or an error without an answer. */
export interface AttemptResponse {
  status: number | null;
  body: string | null;
  error: string | null;
}

/**
 * The dispatcher's reads and writes of deliveries, by id across entities and modes: claims,
 * the outcomes of attempts (each written only while its claim holds: same attempt_count, still
 * pending), the sweep, recovery and retention. Statements outside a transaction go to the pool;
 * the permanent failure is written in the caller's TransactionHost transaction.
 */
@Injectable()
export class DeliveryAttemptRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tx: TransactionHost,
  ) {}

  /**
   * Claims the due, unclaimed deliveries among `deliveryIds` for `leaseMs` (one more attempt
   * each), skipping rows another dispatcher is claiming at the same moment (SKIP LOCKED); a
   * delivery due within `dueSlackMs` counts as due. Each id is looked up by primary key (a
   * lateral subquery with its row lock, which the planner keeps as it is): over the whole list,
   * the due-time condition let the cached plan scan the partial index of pending deliveries,
   * which is as long as the backlog.
   */
  async claim(
    deliveryIds: readonly string[],
    leaseMs: number,
    dueSlackMs: number,
  ): Promise<ClaimedAttempt[]> {
    return (await this.dataSource.query(
      `WITH due AS (
         SELECT d.id FROM unnest($1::uuid[]) AS t(id) CROSS JOIN LATERAL (
           SELECT w.id FROM webhook_deliveries w
            WHERE w.id = t.id AND w.status = 'pending' AND w.next_retry_at <= now() + $3 * interval '1 millisecond'
              AND (w.claimed_until IS NULL OR w.claimed_until < now())
            FOR UPDATE SKIP LOCKED) d),
       claimed AS (
         UPDATE webhook_deliveries d
            SET attempt_count = d.attempt_count + 1, claimed_until = now() + $2 * interval '1 millisecond',
                updated_at = now(), version = d.version + 1
           FROM due WHERE d.id = due.id
          RETURNING d.id, d.entity_id, d.livemode, d.endpoint_id, d.event_id, d.attempt_count, d.last_attempt)
       SELECT c.*, e.url, e.secret, e.status AS endpoint_status, e.deleted_at,
              o.type, o.api_version, o.data, o.created_at AS event_created_at, o.request_id
         FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id LEFT JOIN outbox_events o ON o.id = c.event_id`,
      [deliveryIds, leaseMs, dueSlackMs],
    )) as ClaimedAttempt[];
  }

  /** Records successful attempts in one statement and resets their endpoints' failure counters. */
  async recordSuccesses(
    succeeded: readonly { claimed: ClaimedAttempt; response: Pick<AttemptResponse, 'status' | 'body'> }[],
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
        succeeded.map((s) => s.response.status),
        succeeded.map((s) => s.response.body),
      ],
    );
  }

  /** Cancels a claimed attempt without sending it, with the reason as its error; answers how many rows changed. */
  cancelClaimed(claimed: ClaimedAttempt, error: string): Promise<number> {
    return this.finish(claimed, `status = 'cancelled', next_retry_at = NULL, error = $3`, [error]);
  }

  /** Records a failed attempt to be retried in `delayMs`; answers how many rows changed. */
  scheduleRetry(claimed: ClaimedAttempt, response: AttemptResponse, delayMs: number): Promise<number> {
    return this.finish(
      claimed,
      `next_retry_at = now() + $6 * interval '1 millisecond', failed_at = now(), response_status = $3, response_body = $4, error = $5`,
      [response.status, response.body, response.error, delayMs],
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

  /** Records a permanently failed attempt in the caller's transaction; answers how many rows changed. */
  async recordPermanentFailure(claimed: ClaimedAttempt, response: AttemptResponse): Promise<number> {
    const [, updated] = (await this.tx.transactional.query(
      `UPDATE webhook_deliveries
          SET status = 'failed', failed_at = now(), next_retry_at = NULL, claimed_until = NULL,
              response_status = $3, response_body = $4, error = $5, updated_at = now(), version = version + 1
        WHERE id = $1 AND attempt_count = $2 AND status = 'pending'`,
      [claimed.id, claimed.attempt_count, response.status, response.body, response.error],
    )) as [unknown[], number];
    return updated;
  }

  /** The delivery as the caller's transaction now holds it. */
  deliveryById(id: string): Promise<WebhookDeliveryRecord> {
    return this.tx.transactional.findOneByOrFail(WebhookDeliveryRecord, { id });
  }

  /**
   * Up to `limit` deliveries due for `graceMs` and unclaimed, longest due first, with the attempt
   * each is at: the sweep's.
   */
  async dueUnclaimed(limit: number, graceMs: number): Promise<{ id: string; attempt_count: number }[]> {
    return (await this.dataSource.query(
      `SELECT id, attempt_count FROM webhook_deliveries
        WHERE status = 'pending' AND next_retry_at <= now() - $2 * interval '1 millisecond'
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY next_retry_at LIMIT $1`,
      [limit, graceMs],
    )) as { id: string; attempt_count: number }[];
  }

  /**
   * Makes the endpoint's failed deliveries created since `since` pending again, due now with one
   * more attempt each (while the endpoint is active and not deleted); answers them with the
   * attempt each is at.
   */
  async requeueFailedSince(of: {
    endpointId: string;
    entityId: string;
    livemode: boolean;
    since: string;
  }): Promise<{ id: string; attempt_count: number }[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries d
          SET status = 'pending', last_attempt = d.attempt_count + 1, next_retry_at = now(), claimed_until = NULL,
              updated_at = now(), version = d.version + 1
         FROM webhook_endpoints e
        WHERE d.endpoint_id = $1 AND d.entity_id = $2 AND d.livemode = $3 AND d.status = 'failed' AND d.created_at >= $4
          AND e.id = d.endpoint_id AND e.status = 'active' AND e.deleted_at IS NULL
        RETURNING d.id, d.attempt_count`,
      [of.endpointId, of.entityId, of.livemode, of.since],
    )) as [{ id: string; attempt_count: number }[], number];
    return rows;
  }

  /** Deletes up to `limit` finished deliveries older than `days` days; answers how many. */
  async purgeFinished(days: number, limit: number): Promise<number> {
    const [, n] = (await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE created_at < now() - $1 * interval '1 day' AND status <> 'pending' LIMIT $2)`,
      [days, limit],
    )) as [unknown, number];
    return n;
  }
}
