import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventorySettingsRecord } from '../infrastructure/inventory.entities';
import { InventorySettingsRepository } from '../infrastructure/inventory-settings.repository';
import { StockReferences } from './stock-references';

export interface InventorySettingsResource {
  object: 'inventory_settings';
  allow_negative_stock: boolean;
  default_location_id: string | null;
  livemode: boolean;
  updated_at: string;
}

const present = (s: InventorySettingsRecord): InventorySettingsResource => ({
  object: 'inventory_settings',
  allow_negative_stock: s.allowNegativeStock,
  default_location_id: s.defaultLocationId,
  livemode: s.livemode,
  updated_at: s.updatedAt.toISOString(),
});

/** Per entity and mode: whether stock may go negative (default no) and where order lines commit stock. */
@Injectable()
export class InventorySettingsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly settings: InventorySettingsRepository,
    private readonly references: StockReferences,
  ) {}

  async retrieve(): Promise<InventorySettingsResource> {
    return present(await this.settings.current());
  }

  async update(changes: { allow_negative_stock?: boolean; default_location_id?: string | null }) {
    return this.tx.run(async () => {
      await this.settings.current();
      const record = await this.settings.getForUpdate((await this.settings.current()).id);
      if (changes.default_location_id)
        await this.references.location(changes.default_location_id, 'default_location_id');
      if (changes.allow_negative_stock !== undefined)
        record.allowNegativeStock = changes.allow_negative_stock;
      if (changes.default_location_id !== undefined) {
        record.defaultLocationId = changes.default_location_id;
        // Where order lines commit stock is kept with the entity's stock facts.
        await this.references.forgetEntity();
      }
      return present(await this.settings.save(record));
    });
  }
}
