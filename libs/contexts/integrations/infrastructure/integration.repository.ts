import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import {
  IntegrationImportRecord,
  IntegrationRecord,
  IntegrationRunRecord,
  ImportKind,
} from './integration.entity';

@Injectable()
export class IntegrationRepository extends TenantRepository<IntegrationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, IntegrationRecord, 'integration');
  }

  /** The oldest connected integration of this type in the caller's entity and mode. */
  async findConnectedOfType(type: string): Promise<IntegrationRecord | null> {
    return this.scopedQuery('i')
      .andWhere(`i.type = :type AND i.status = 'connected'`, { type })
      .orderBy('i.id', 'ASC')
      .getOne();
  }

  /** Every connected integration of every entity and mode (the scheduled import walks them). */
  async allConnected(): Promise<Pick<IntegrationRecord, 'id' | 'entityId' | 'livemode'>[]> {
    return this.tx.manager
      .getRepository(IntegrationRecord)
      .createQueryBuilder('i')
      .select(['i.id', 'i.entityId', 'i.livemode'])
      .where(`i.status = 'connected'`)
      .orderBy('i.id', 'ASC')
      .getMany();
  }
}

@Injectable()
export class IntegrationRunRepository extends TenantRepository<IntegrationRunRecord> {
  constructor(tx: TransactionHost) {
    super(tx, IntegrationRunRecord, 'integration run');
  }
}

@Injectable()
export class IntegrationImportRepository extends TenantRepository<IntegrationImportRecord> {
  constructor(tx: TransactionHost) {
    super(tx, IntegrationImportRecord, 'integration import');
  }

  async find(
    integrationId: string,
    kind: ImportKind,
    externalId: string,
  ): Promise<IntegrationImportRecord | null> {
    return this.scopedQuery('m')
      .andWhere('m.integration_id = :integrationId AND m.kind = :kind AND m.external_id = :externalId', {
        integrationId,
        kind,
        externalId,
      })
      .getOne();
  }
}
