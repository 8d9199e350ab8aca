import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { DemandRefreshQueue } from '../application/demand-refresh-queue';
import { DemandRefreshRequests } from '../application/demand-refresh-requests.port';

/**
 * DemandRefreshRequests by a signal sent once the open transaction committed: the refresh queued
 * then (DemandRefreshQueue, a delayed and de-duplicated job) finds the marks committed with it.
 */
@Injectable()
export class DemandRefreshAfterCommit extends DemandRefreshRequests {
  constructor(
    private readonly tx: TransactionHost,
    private readonly queue: DemandRefreshQueue,
  ) {
    super();
  }

  request(productIds: readonly string[]): void {
    if (productIds.length > 0) this.tx.afterCommit(() => this.queue.wake());
  }
}
