import { Injectable } from '@nestjs/common';
import type { PostalAddress } from '#platform/reference-lists/postal-address';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { AccountRecord } from './account.entity';

@Injectable()
export class AccountRepository extends TenantRepository.of(AccountRecord, 'account') {
  /** A page of accounts: the active ones (all with `include_deleted`), filtered by email (any case). */
  list(query: ListQueryDto & { include_deleted?: boolean; email?: string }, url: string) {
    return this.page(query, { url }, (qb) => {
      if (!query.include_deleted) qb.andWhere(`r.status = 'active'`);
      if (query.email) qb.andWhere('lower(r.email) = lower(:email)', { email: query.email });
    });
  }

  /**
   * The account's name and email with its default shipping address (the newest shipping address
   * when none is flagged), by one statement; null when the caller's entity and mode have no
   * account with this id.
   */
  async recipient(id: string): Promise<{
    name: string;
    email: string | null;
    shipping_address: PostalAddress | null;
  } | null> {
    if (!isUuid(id)) return null;
    const { entityId, livemode } = this.scope();
    const [row] = await this.tx.manager.query(
      `SELECT a.name, a.email, ${SHIPPING_ADDRESS_OF_A} AS shipping_address
       FROM accounts a
       WHERE a.entity_id = $1 AND a.livemode = $2 AND a.id = $3`,
      [entityId, livemode, id],
    );
    return row ?? null;
  }
}

/**
 * The shipping address of account `a` as JSON (line1, line2, city, region, postal_code,
 * country): its default shipping address, else its newest one; null without one.
 */
export const SHIPPING_ADDRESS_OF_A = `(SELECT json_build_object('line1', d.line1, 'line2', d.line2, 'city', d.city, 'region', d.region,
                                        'postal_code', d.postal_code, 'country', d.country)
               FROM account_addresses d
               WHERE d.entity_id = a.entity_id AND d.livemode = a.livemode AND d.account_id = a.id
                 AND d.type = 'shipping'
               ORDER BY d.is_default DESC, CASE WHEN d.is_default THEN d.id END ASC, d.id DESC
               LIMIT 1)`;
