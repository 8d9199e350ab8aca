import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { InventorySettingsRecord } from './inventory.entities';

/** One settings row per entity and mode, created with the defaults on first use. */
@Injectable()
export class InventorySettingsRepository extends TenantRepository.of(
  InventorySettingsRecord,
  'inventory settings',
) {
  async current(): Promise<InventorySettingsRecord> {
    const { entityId, livemode } = this.scope();
    const found = await this.repo.findOne({ where: { entityId, livemode } });
    if (found) return found;
    await this.tx.manager.query(
      `INSERT INTO inventory_settings (id, entity_id, livemode) VALUES ($1, $2, $3) ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode],
    );
    return this.repo.findOneOrFail({ where: { entityId, livemode } });
  }
}
