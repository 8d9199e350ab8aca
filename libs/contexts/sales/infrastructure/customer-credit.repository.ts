import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { CustomerCreditRecord } from './order.entity';

@Injectable()
export class CustomerCreditRepository extends TenantRepository.of(
  CustomerCreditRecord,
  'credit transaction',
) {
  /** A page of one account's credit transactions, newest first. */
  listOfAccount(accountId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url }, [{ sql: 'account_id = ?', value: accountId }]);
  }
}
