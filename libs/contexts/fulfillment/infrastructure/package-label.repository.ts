import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { PackageLabelRecord } from './fulfillment.entities';

@Injectable()
export class PackageLabelRepository extends TenantRepository.of(PackageLabelRecord, 'label') {
  /** Label data without the file. */
  async ofPackages(packageIds: readonly string[]): Promise<Map<string, PackageLabelRecord>> {
    if (packageIds.length === 0) return new Map();
    const rows = await this.scopedQuery('l')
      .andWhere('l.package_id IN (:...ids)', { ids: [...new Set(packageIds)] })
      .getMany();
    return new Map(rows.map((r) => [r.packageId, r]));
  }

  /** The label with its file. */
  async fileOf(packageId: string): Promise<PackageLabelRecord | null> {
    return this.scopedQuery('l')
      .addSelect('l.content')
      .andWhere('l.package_id = :packageId', { packageId })
      .getOne();
  }
}
