import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { WebhookDeliveryRecord } from './webhook-delivery.entity';

/** Deliveries of the caller's entity and mode. */
@Injectable()
export class WebhookDeliveryRepository extends TenantRepository<WebhookDeliveryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, WebhookDeliveryRecord, 'webhook delivery');
  }

  /** Cancels every pending delivery of an endpoint (it was deleted or disabled). */
  async cancelPending(endpointId: string): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_retry_at = NULL, updated_at = now(), version = version + 1
       WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId],
    );
  }
}
