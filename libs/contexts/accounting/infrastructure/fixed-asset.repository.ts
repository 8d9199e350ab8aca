import { Injectable } from '@nestjs/common';
import { DeepPartial } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { FixedAssetDepreciationRecord, FixedAssetEventRecord, FixedAssetRecord } from './accounting.entities';

/** Fixed assets, with their depreciation runs and their impairment, recovery and revaluation events. */
@Injectable()
export class FixedAssetRepository extends TenantRepository.of(FixedAssetRecord, 'fixed asset') {
  /** Inserts a depreciation run (its id and the caller's entity and mode among the values) in the caller's transaction. */
  async insertDepreciation(values: QueryDeepPartialEntity<FixedAssetDepreciationRecord>): Promise<void> {
    await this.tx.transactional.getRepository(FixedAssetDepreciationRecord).insert(values);
  }

  /** Inserts an asset event (its id and the caller's entity and mode among the values) in the caller's transaction. */
  async insertEvent(values: DeepPartial<FixedAssetEventRecord>): Promise<void> {
    const events = this.tx.transactional.getRepository(FixedAssetEventRecord);
    await events.insert(events.create(values));
  }

  /** The event of this id as the caller's transaction now holds it. */
  eventById(id: string): Promise<FixedAssetEventRecord> {
    return this.tx.transactional.getRepository(FixedAssetEventRecord).findOneByOrFail({ id });
  }

  /** The events of an asset, newest first (event date, then creation time). */
  eventsOf(asset: FixedAssetRecord): Promise<FixedAssetEventRecord[]> {
    return this.tx.manager.getRepository(FixedAssetEventRecord).find({
      where: { fixedAssetId: asset.id, entityId: asset.entityId, livemode: asset.livemode },
      order: { eventDate: 'DESC', createdAt: 'DESC', id: 'DESC' },
    });
  }
}
