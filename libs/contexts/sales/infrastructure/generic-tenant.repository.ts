import { EntityTarget } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';

/** A tenant repository for any record type (the reference lists share one implementation). */
export class GenericTenantRepository<E extends TenantRecord> extends TenantRepository<E> {
  constructor(tx: TransactionHost, target: EntityTarget<E>, resourceName: string) {
    super(tx, target, resourceName);
  }
}
