import { EntityTarget } from 'typeorm';
import { notFound } from '#platform/errors/domain-error';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { OwnedRecords } from '#platform/reference-lists/defined-resource.service';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountChildRecord } from './account.entity';

/**
 * Records owned by an account. Lookups take the account id too, so a child reached through
 * another account's path is absent (404), and the "one default per account" flag is kept here.
 */
export class AccountChildRepository<E extends AccountChildRecord>
  extends TenantRepository<E>
  implements OwnedRecords<E>
{
  constructor(tx: TransactionHost, target: EntityTarget<E>, resourceName: string) {
    super(tx, target, resourceName);
  }

  async getOfOwner(accountId: string, id: string, lock = false): Promise<E> {
    if (!isUuid(id)) throw notFound(this.resourceName, id);
    const qb = this.scopedQuery('r').andWhere('r.account_id = :accountId AND r.id = :id', { accountId, id });
    if (lock) qb.setLock('pessimistic_write');
    const found = await qb.getOne();
    if (!found) throw notFound(this.resourceName, id);
    return found;
  }

  /** A page of the account's records. */
  listOfOwner(accountId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url }, (qb) => qb.andWhere('r.account_id = :accountId', { accountId }));
  }

  async allOfOwner(accountId: string): Promise<E[]> {
    return this.scopedQuery('r')
      .andWhere('r.account_id = :accountId', { accountId })
      .orderBy('r.id', 'ASC')
      .getMany();
  }

  /** Clears `column` on the account's records matching `where` (one statement, before setting a new one). */
  async clearFlag(accountId: string, column: string, extra: Record<string, unknown> = {}): Promise<void> {
    const qb = this.tx.transactional
      .createQueryBuilder()
      .update(this.targetClass)
      .set({ [column]: false, version: () => 'version + 1', updatedAt: () => 'now()' } as never)
      .where(`account_id = :accountId AND ${this.columnName(column)} = true`, { accountId });
    for (const [key, value] of Object.entries(extra)) qb.andWhere(`${key} = :${key}`, { [key]: value });
    await qb.execute();
  }

  /** The newest record of the account matching `extra`, if any. */
  async newestOfOwner(accountId: string, extra: Record<string, unknown> = {}): Promise<E | null> {
    const qb = this.scopedQuery('r').andWhere('r.account_id = :accountId', { accountId });
    for (const [key, value] of Object.entries(extra)) qb.andWhere(`r.${key} = :${key}`, { [key]: value });
    return qb.orderBy('r.id', 'DESC').setLock('pessimistic_write').getOne();
  }

  /** Moves every record of `fromAccountId` to `toAccountId` with `column` cleared (merge). */
  async moveAll(fromAccountId: string, toAccountId: string, column: string): Promise<number> {
    const result = await this.tx.transactional
      .createQueryBuilder()
      .update(this.targetClass)
      .set({
        accountId: toAccountId,
        [column]: false,
        version: () => 'version + 1',
        updatedAt: () => 'now()',
      } as never)
      .where('account_id = :fromAccountId', { fromAccountId })
      .execute();
    return result.affected ?? 0;
  }

  private get targetClass() {
    return this.repo.target;
  }

  private columnName(property: string): string {
    return this.repo.metadata.findColumnWithPropertyName(property)?.databaseName ?? property;
  }
}
