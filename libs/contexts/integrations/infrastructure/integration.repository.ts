import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import {
  IntegrationImportRecord,
  IntegrationRecord,
  IntegrationRunRecord,
  ImportKind,
} from './integration.entity';

@Injectable()
export class IntegrationRepository extends TenantRepository.of(IntegrationRecord, 'integration') {
  /** A page of integrations, filtered by connector type and status. */
  list(query: ListQueryDto & { type?: string; status?: string }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['type', 'status'] }));
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
export class IntegrationRunRepository extends TenantRepository.of(IntegrationRunRecord, 'integration run') {
  /** A page of the runs of one integration. */
  listOfIntegration(integrationId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url }, [{ sql: 'integration_id = ?', value: integrationId }]);
  }
}

@Injectable()
export class IntegrationImportRepository extends TenantRepository.of(
  IntegrationImportRecord,
  'integration import',
) {
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
