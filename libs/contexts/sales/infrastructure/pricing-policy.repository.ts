import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { PricingPolicyRecord } from './pricing-policy.entity';

export interface PricingPolicyListFilters {
  account_id?: string;
  product_id?: string;
  active?: boolean;
}

@Injectable()
export class PricingPolicyRepository extends TenantRepository.of(PricingPolicyRecord, 'pricing policy') {
  /** A page of policies, filtered by account, product and whether they are active. */
  list(query: ListQueryDto & PricingPolicyListFilters, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['account_id', 'product_id', 'active'] }));
  }

  /**
   * The active policies that may price a line of this account and product: those of the account
   * (or of no account) and of the product (or of no product).
   */
  activeCandidates(line: {
    accountId?: string | null;
    productId?: string | null;
  }): Promise<PricingPolicyRecord[]> {
    const qb = this.scopedQuery('p').andWhere('p.active = true');
    qb.andWhere('(p.account_id IS NULL OR p.account_id = :accountId)', {
      accountId: line.accountId ?? null,
    });
    qb.andWhere('(p.product_id IS NULL OR p.product_id = :productId)', {
      productId: line.productId ?? null,
    });
    return qb.getMany();
  }

  /**
   * activeCandidates() of many lines at once: the active policies of any of these accounts (or of
   * no account) and of any of these products (or of no product). Each line's own candidates are
   * among them; the pricing rule (policyApplies) picks them out.
   */
  activeCandidatesOfAny(
    accountIds: readonly string[],
    productIds: readonly string[],
  ): Promise<PricingPolicyRecord[]> {
    return this.scopedQuery('p')
      .andWhere('p.active = true')
      .andWhere('(p.account_id IS NULL OR p.account_id = ANY(CAST(:accountIds AS uuid[])))', { accountIds })
      .andWhere('(p.product_id IS NULL OR p.product_id = ANY(CAST(:productIds AS uuid[])))', { productIds })
      .getMany();
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
