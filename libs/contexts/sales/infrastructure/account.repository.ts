import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
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
}
