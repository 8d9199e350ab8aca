import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PricingPolicyRecord } from './pricing-policy.entity';

@Injectable()
export class PricingPolicyRepository extends TenantRepository<PricingPolicyRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PricingPolicyRecord, 'pricing policy');
  }

  /** Points the policies of one account at another (account merge). */
  async reassignAccount(fromAccountId: string, toAccountId: string): Promise<void> {
    await this.tx.transactional
      .createQueryBuilder()
      .update(PricingPolicyRecord)
      .set({ accountId: toAccountId, version: () => 'version + 1', updatedAt: () => 'now()' })
      .where('account_id = :fromAccountId', { fromAccountId })
      .execute();
  }
}
