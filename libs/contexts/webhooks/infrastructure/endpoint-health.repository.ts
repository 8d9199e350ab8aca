import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EndpointState, EndpointStatusValue } from '../domain/endpoint';
import { CANCEL_PENDING_OF_ENDPOINT } from './webhook-delivery.repository';
import { WebhookEndpointRecord } from './webhook-endpoint.entity';

/**
 * The dispatcher's reads and writes of an endpoint's health, by id across entities and modes, in
 * the caller's TransactionHost transaction: its count of consecutive permanent failures and the
 * automatic disable the domain decides on it (domain/endpoint.ts).
 */
@Injectable()
export class EndpointHealthRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * Counts one more consecutive permanent failure of the endpoint (its row locked until the
   * transaction ends) and answers its state with it; null when there is no such endpoint.
   */
  async countPermanentFailure(endpointId: string): Promise<EndpointState | null> {
    const [counted] = (await this.tx.transactional.query(
      `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, status, disabled_reason`,
      [endpointId],
    )) as [
      { consecutive_failures: number; status: EndpointStatusValue; disabled_reason: string | null }[],
      number,
    ];
    const row = counted[0];
    return row
      ? {
          status: row.status,
          disabledReason: row.disabled_reason,
          consecutiveFailures: row.consecutive_failures,
        }
      : null;
  }

  /** Writes the disabled state of an endpoint and cancels its pending deliveries. */
  async disable(endpointId: string, state: EndpointState): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE webhook_endpoints SET status = $2, disabled_reason = $3, updated_at = now(), version = version + 1
        WHERE id = $1`,
      [endpointId, state.status, state.disabledReason],
    );
    await this.tx.transactional.query(CANCEL_PENDING_OF_ENDPOINT, [endpointId]);
  }

  /** The endpoint as the caller's transaction now holds it. */
  endpointById(endpointId: string): Promise<WebhookEndpointRecord> {
    return this.tx.transactional.findOneByOrFail(WebhookEndpointRecord, { id: endpointId });
  }
}
