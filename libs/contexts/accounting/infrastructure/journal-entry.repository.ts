import { Injectable } from '@nestjs/common';
import { DeepPartial } from 'typeorm';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { JournalEntryRecord } from './accounting.entities';

export interface JournalEntryListFilters {
  batch_id?: string;
  status?: string;
  source_type?: string;
  period_id?: string;
}

@Injectable()
export class JournalEntryRepository extends TenantRepository.of(JournalEntryRecord, 'journal entry') {
  /** A page of journal entries, filtered by import batch, status, source type and period. */
  list(query: ListQueryDto & JournalEntryListFilters, url: string) {
    const filters = listFilters(query, { equal: ['batch_id', 'status', 'source_type', 'period_id'] });
    return this.page(query, { url }, filters);
  }

  /** A record with these values, not yet written (JournalEntryWriter writes it). */
  build(values: DeepPartial<JournalEntryRecord>): JournalEntryRecord {
    return this.repo.create(values);
  }

  /** The entry posted for a source document, if any. */
  bySource(sourceType: string, sourceId: string): Promise<JournalEntryRecord | null> {
    return this.scopedQuery('e')
      .andWhere('e.source_type = :sourceType AND e.source_id = :sourceId', { sourceType, sourceId })
      .getOne();
  }

  /**
   * Serializes postings of one source document until the transaction ends (a transaction-scoped
   * advisory lock on the source, not the entry counter row, so postings of other sources go on).
   */
  async lockSource(sourceType: string, sourceId: string): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `journal_entries.source:${entityId}:${livemode}:${sourceType}:${sourceId}`,
    ]);
  }

  /** How many entries of the period are still drafts or pending approval, by status. */
  unfinishedInPeriod(periodId: string): Promise<{ status: string; n: number }[]> {
    return this.scopedQuery('e')
      .select('e.status', 'status')
      .addSelect('count(*)::int', 'n')
      .andWhere('e.period_id = :id AND e.status IN (:...statuses)', {
        id: periodId,
        statuses: ['draft', 'pending_approval'],
      })
      .groupBy('e.status')
      .getRawMany<{ status: string; n: number }>();
  }
}
