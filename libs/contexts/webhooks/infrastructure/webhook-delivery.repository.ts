import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { WebhookDeliveryRecord } from './webhook-delivery.entity';

/** Cancels every pending delivery of the endpoint $1. */
export const CANCEL_PENDING_OF_ENDPOINT = `UPDATE webhook_deliveries SET status = 'cancelled', next_retry_at = NULL, updated_at = now(), version = version + 1
       WHERE endpoint_id = $1 AND status = 'pending'`;

/** Deliveries of the caller's entity and mode. */
@Injectable()
export class WebhookDeliveryRepository extends TenantRepository.of(
  WebhookDeliveryRecord,
  'webhook delivery',
) {
  /** A page of the deliveries of one endpoint, filtered by status. */
  listOfEndpoint(endpointId: string, query: ListQueryDto & { status?: string }, url: string) {
    return this.page(query, { url }, (qb) => {
      qb.andWhere('r.endpoint_id = :endpointId', { endpointId });
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
    });
  }

  /** Cancels every pending delivery of an endpoint (it was deleted or disabled). */
  async cancelPending(endpointId: string): Promise<void> {
    await this.tx.transactional.query(CANCEL_PENDING_OF_ENDPOINT, [endpointId]);
  }
}
