import { EntityTarget } from 'typeorm';
import { TenantRecord } from '../persistence/columns';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';

/** A tenant repository for any record type (the reference lists share one implementation). */
export class GenericTenantRepository<E extends TenantRecord> extends TenantRepository<E> {
  constructor(tx: TransactionHost, target: EntityTarget<E>, resourceName: string) {
    super(tx, target, resourceName);
  }
}
