import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReturnAuthorizationRecord } from './fulfillment.entities';

@Injectable()
export class ReturnAuthorizationRepository extends TenantRepository<ReturnAuthorizationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ReturnAuthorizationRecord, 'return');
  }

  /** Inserts a return under the id of its return document. */
  async createWithId(
    id: string,
    values: Omit<Partial<ReturnAuthorizationRecord>, 'id' | 'entityId' | 'livemode'>,
  ): Promise<ReturnAuthorizationRecord> {
    const repo = this.tx.transactional.getRepository(ReturnAuthorizationRecord);
    return repo.save(repo.create({ ...values, id, ...this.scope() }));
  }

  /** The returns of a sales order that are not cancelled (their lines hold shipped units). */
  ofOrder(orderId: string): Promise<ReturnAuthorizationRecord[]> {
    return this.scopedQuery('r')
      .andWhere("r.order_id = :orderId AND r.status <> 'cancelled'", { orderId })
      .orderBy('r.id')
      .getMany();
  }
}
