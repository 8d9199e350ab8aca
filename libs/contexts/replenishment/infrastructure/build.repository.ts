import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { BuildRecord } from './build.entity';

@Injectable()
export class BuildRepository extends TenantRepository.of(BuildRecord, 'build') {
  /** The order lines among `lineIds` that a posted build assembled a kit for. */
  async assembledLines(lineIds: readonly string[]): Promise<Set<string>> {
    if (lineIds.length === 0) return new Set();
    const rows = await this.scopedQuery('b')
      .select('b.order_line_id', 'line')
      .andWhere(`b.status = 'posted' AND b.order_line_id IN (:...lineIds)`, {
        lineIds: [...new Set(lineIds)],
      })
      .getRawMany<{ line: string }>();
    return new Set(rows.map((r) => r.line));
  }
}
