import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingSettingsRecord } from './accounting.entities';

/** The calling entity's accounting settings row (one per entity and mode), created on first use. */
@Injectable()
export class AccountingSettingsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The row, created with `prefix` as its entry-number prefix when it does not exist yet. */
  async ensure(prefix: string): Promise<AccountingSettingsRecord> {
    const { entityId, livemode } = RequestContext.caller();
    const repo = this.tx.manager.getRepository(AccountingSettingsRecord);
    const found = await repo.findOne({ where: { entityId, livemode } });
    if (found) return found;
    await this.tx.manager.query(
      `INSERT INTO accounting_settings (id, entity_id, livemode, entry_number_prefix) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode, prefix],
    );
    return repo.findOneOrFail({ where: { entityId, livemode } });
  }

  save(settings: AccountingSettingsRecord): Promise<AccountingSettingsRecord> {
    return this.tx.transactional.getRepository(AccountingSettingsRecord).save(settings);
  }
}
