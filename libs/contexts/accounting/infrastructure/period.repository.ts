import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { AccountingPeriodRecord } from './accounting.entities';

@Injectable()
export class PeriodRepository extends TenantRepository.of(AccountingPeriodRecord, 'accounting period') {
  /** The period whose dates cover `date`, if any, share-locked so it cannot close under the caller's transaction. */
  coveringLocked(date: string): Promise<AccountingPeriodRecord | null> {
    return this.scopedQuery('p')
      .andWhere('p.start_date <= :date AND p.end_date >= :date', { date })
      .setLock('pessimistic_read')
      .getOne();
  }

  overlapping(start: string, end: string): Promise<AccountingPeriodRecord | null> {
    return this.scopedQuery('p')
      .andWhere('p.start_date <= :end AND p.end_date >= :start', { start, end })
      .getOne();
  }

  /** Serializes period creation per entity and mode (transaction-scoped), so two overlapping periods cannot both pass the check. */
  async lockForCreation(): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `accounting_periods:${entityId}:${livemode}`,
    ]);
  }

  /** The periods of a fiscal year, in date order. */
  ofFiscalYear(fiscalYearId: string): Promise<AccountingPeriodRecord[]> {
    return this.scopedQuery('p')
      .andWhere('p.fiscal_year_id = :id', { id: fiscalYearId })
      .orderBy('p.start_date')
      .getMany();
  }

  /** A page of periods, filtered by status and fiscal year. */
  pageFiltered(query: ListQueryDto & { status?: string; fiscal_year_id?: string }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['status', 'fiscal_year_id'] }));
  }
}
