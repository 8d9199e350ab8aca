import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ImportErrorRecord } from './import.entity';

@Injectable()
export class ImportErrorRepository extends TenantRepository.of(ImportErrorRecord, 'import error') {
  /** A page of the errors of one import, in row order. */
  listOfImport(importId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url, direction: 'asc' }, (qb) =>
      qb.andWhere('r.import_id = :importId', { importId }),
    );
  }
}
