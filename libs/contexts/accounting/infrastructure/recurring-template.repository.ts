import { Injectable } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { RecurringJournalEntryRecord, RecurringRunRecord } from './accounting.entities';

/** A template with the entity it belongs to, as the scheduler finds it before acting for that entity. */
export interface DueTemplate {
  id: string;
  entityId: string;
  livemode: boolean;
  nextRunDate: string;
}

@Injectable()
export class RecurringTemplateRepository extends TenantRepository.of(
  RecurringJournalEntryRecord,
  'recurring journal entry',
) {
  /** A page of templates, filtered by whether they are active. */
  list(query: ListQueryDto & { active?: boolean }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['active'] }));
  }

  /**
   * Active templates of every entity and mode whose next run is on or before `date`, by next run
   * date: the scheduler's one read without a caller (it then acts as each template's entity).
   */
  dueAcrossEntities(date: string): Promise<DueTemplate[]> {
    return this.tx.dataSource.getRepository(RecurringJournalEntryRecord).find({
      select: { id: true, entityId: true, livemode: true, nextRunDate: true },
      where: { active: true, nextRunDate: LessThanOrEqual(date) },
      order: { nextRunDate: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Claims the occurrence `runDate` of an active template: moves next_run_date from `runDate` to
   * `next` unless another run did first. True when this caller holds the claim.
   */
  async claimOccurrence(id: string, runDate: string, next: string, lastRunDate: string): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.tx.transactional.query(
      `UPDATE recurring_journal_entries SET next_run_date = $3, last_run_date = $4, updated_at = now(), version = version + 1
       WHERE id = $1 AND next_run_date = $2 AND active RETURNING id`,
      [id, runDate, next, lastRunDate],
    );
    return rows.length > 0;
  }

  /** The runs of a template of the caller's entity and mode, by run date. */
  runsOf(templateId: string): Promise<RecurringRunRecord[]> {
    return this.tx.manager
      .getRepository(RecurringRunRecord)
      .find({ where: { templateId, ...this.scope() }, order: { runDate: 'ASC' } });
  }

  /** Records the run of an occurrence (unique per template and run date) and its entry on the template. */
  async recordRun(run: {
    id: string;
    templateId: string;
    runDate: string;
    journalEntryId: string;
    trigger: string;
  }) {
    await this.tx.transactional.getRepository(RecurringRunRecord).insert({ ...run, ...this.scope() });
    await this.tx.transactional.query(
      `UPDATE recurring_journal_entries SET last_journal_entry_id = $2 WHERE id = $1`,
      [run.templateId, run.journalEntryId],
    );
  }
}
