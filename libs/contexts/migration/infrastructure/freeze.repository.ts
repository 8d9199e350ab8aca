import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { EntityFreezeRecord } from './freeze.entity';

@Injectable()
export class FreezeRepository extends TenantRepository.of(EntityFreezeRecord, 'freeze status') {
  /** The freeze token of an entity in a mode, or null when it is not frozen (read on the pool, outside any transaction). */
  async freezeToken(entityId: string, livemode: boolean): Promise<string | null> {
    const rows: { freeze_token: string }[] = await this.tx.dataSource.query(
      `SELECT freeze_token FROM entity_freezes WHERE entity_id = $1 AND livemode = $2 AND frozen`,
      [entityId, livemode],
    );
    return rows[0]?.freeze_token ?? null;
  }

  /** The caller's freeze row, or null when the entity was never frozen in this mode. */
  async current(): Promise<EntityFreezeRecord | null> {
    return this.scopedQuery('f').getOne();
  }

  /** The caller's freeze row, locked for the open transaction; null when there is none. */
  async lockCurrent(): Promise<EntityFreezeRecord | null> {
    return this.scopedQuery('f').setLock('pessimistic_write').getOne();
  }

  /** The caller's freeze row, created unfrozen when missing, locked for the open transaction. */
  async createAndLockCurrent(): Promise<EntityFreezeRecord> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(
      `INSERT INTO entity_freezes (id, entity_id, livemode, frozen) VALUES ($1, $2, $3, false) ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode],
    );
    return this.scopedQuery('f').setLock('pessimistic_write').getOneOrFail();
  }
}
