import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { LedgerAccountRecord } from './accounting.entities';

@Injectable()
export class LedgerAccountRepository extends TenantRepository.of(LedgerAccountRecord, 'ledger account') {
  /** A page of the chart of accounts, filtered by type, control role and postability. */
  pageFiltered(
    query: ListQueryDto & { type?: string; control_role?: string; postable?: boolean },
    url: string,
  ) {
    return this.page(query, { url }, listFilters(query, { equal: ['type', 'control_role', 'postable'] }));
  }

  /** The caller's account of this id, or null (read with the repository's find). */
  findAccount(id: string): Promise<LedgerAccountRecord | null> {
    return this.repo.findOne({ where: { id, ...this.scope() } });
  }

  /**
   * The balance of the accounts holding a control role, on their normal side, over posted (and
   * reversed) entries dated on or before `asOf`; null without such an account or entry.
   */
  async controlBalance(role: string, asOf: string): Promise<string | null> {
    const { entityId, livemode } = this.scope();
    const rows: { balance: string | null }[] = await this.tx.manager.query(
      `SELECT CASE WHEN a.normal_balance = 'debit' THEN sum(l.debit_amount - l.credit_amount) ELSE sum(l.credit_amount - l.debit_amount) END AS balance
       FROM ledger_accounts a
       JOIN journal_lines l ON l.account_id = a.id AND l.entity_id = a.entity_id AND l.livemode = a.livemode
       JOIN journal_entries e ON e.id = l.journal_entry_id
       WHERE a.entity_id = $1 AND a.livemode = $2 AND a.control_role = $3
         AND e.status IN ('posted', 'reversed') AND e.entry_date <= $4
       GROUP BY a.normal_balance`,
      [entityId, livemode, role, asOf],
    );
    return rows[0]?.balance ?? null;
  }
}
