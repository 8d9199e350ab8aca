import { Injectable, Logger } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { EventPublisher } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError, invalidState } from '../domain/accounting-error';
import { businessDay, dayOfMonth, Frequency, latestBusinessDay, nextOccurrence } from '../domain/calendar';
import { RecurringJournalEntryRecord, TemplateLine } from '../infrastructure/accounting.entities';
import { RecurringTemplateRepository } from '../infrastructure/recurring-template.repository';
import { AccountingSettingsService } from './accounting-settings.service';
import { EngineLine, JournalEngine } from './journal-engine.service';
import { LineInput, toEngineLines } from './journal-entries.service';
import { JournalEntryResource, toJournalEntry } from './journal-entry.presenter';
import { toRecurringTemplate } from './recurring-journal-entry.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';

export interface TemplateInput {
  name: string;
  description?: string | null;
  entry_type?: string;
  frequency: Frequency;
  next_run_date: string;
  end_date?: string | null;
  active?: boolean;
  lines: LineInput[];
}

const toTemplateLines = (lines: EngineLine[]): TemplateLine[] =>
  lines.map((l) => ({
    account_id: l.accountId,
    debit_amount: l.debit.toFixed(4),
    credit_amount: l.credit.toFixed(4),
    description: l.description ?? null,
    location_id: l.locationId ?? null,
    department_id: l.departmentId ?? null,
    class_id: l.classId ?? null,
    project_id: l.projectId ?? null,
  }));

/** Recurring journal templates: CRUD, the manual run and the daily scheduled runs. */
@Injectable()
export class RecurringJournalEntriesService extends ResourceReads<
  RecurringJournalEntryRecord,
  ReturnType<typeof toRecurringTemplate>,
  ListQueryDto & { active?: boolean }
> {
  private readonly logger = new Logger(RecurringJournalEntriesService.name);

  constructor(
    private readonly tx: TransactionHost,
    private readonly templates: RecurringTemplateRepository,
    private readonly engine: JournalEngine,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
    private readonly profiles: EntityProfiles,
  ) {
    super(templates, toRecurringTemplate);
  }

  private checkDates(next: string, end: string | null | undefined): void {
    if (end && end < next)
      throw new AccountingError('parameter_invalid', {
        param: 'end_date',
        hint: 'end_date must not be before next_run_date.',
      });
  }

  async create(input: TemplateInput) {
    return this.tx.run(async () => {
      const lines = toEngineLines(input.lines);
      await this.engine.checkLines(lines);
      this.checkDates(input.next_run_date, input.end_date);
      const template = await this.templates.create({
        name: input.name,
        description: input.description ?? null,
        entryType: input.entry_type ?? 'recurring',
        frequency: input.frequency,
        nextRunDate: input.next_run_date,
        anchorDay: dayOfMonth(input.next_run_date),
        endDate: input.end_date ?? null,
        active: input.active ?? true,
        lines: toTemplateLines(lines),
        lastRunDate: null,
        lastJournalEntryId: null,
      });
      return toRecurringTemplate(template);
    });
  }

  async update(id: string, changes: Partial<TemplateInput>) {
    return this.tx.run(async () => {
      const template = await this.templates.getForUpdate(id);
      if (changes.lines) {
        const lines = toEngineLines(changes.lines);
        await this.engine.checkLines(lines);
        template.lines = toTemplateLines(lines);
      }
      if (changes.name !== undefined) template.name = changes.name;
      if (changes.description !== undefined) template.description = changes.description ?? null;
      if (changes.entry_type !== undefined) template.entryType = changes.entry_type;
      if (changes.frequency !== undefined) template.frequency = changes.frequency;
      if (changes.next_run_date !== undefined) {
        template.nextRunDate = changes.next_run_date;
        template.anchorDay = dayOfMonth(changes.next_run_date);
      }
      if (changes.end_date !== undefined) template.endDate = changes.end_date ?? null;
      if (changes.active !== undefined) template.active = changes.active;
      this.checkDates(template.nextRunDate, template.endDate);
      return toRecurringTemplate(await this.templates.save(template));
    });
  }

  async delete(id: string) {
    return this.tx.run(async () => {
      const template = await this.templates.getForUpdate(id);
      await this.templates.delete(template);
      return { id, object: 'recurring_journal_entry' as const, deleted: true as const };
    });
  }

  /** POST /recurring-journal-entries/{id}/run: posts now (dated today), whatever next_run_date says, then advances it. */
  async run(id: string): Promise<JournalEntryResource> {
    return this.tx.run(async () => {
      const template = await this.templates.getForUpdate(id);
      if (!template.active) throw invalidState('recurring journal entry', 'inactive', 'run', ['active']);
      if (template.endDate && template.nextRunDate > template.endDate) {
        throw new AccountingError('invalid_state', {
          hint: `The recurring journal entry ended on ${template.endDate}; move end_date to run it again.`,
          details: { status: 'ended' },
        });
      }
      const today = await this.settings.currentBusinessDay();
      return this.post(template, template.nextRunDate, today, 'manual');
    });
  }

  /**
   * Claims the occurrence `runDate` (a unique (template_id, run_date) row plus a conditional
   * advance of next_run_date) and posts it dated `entryDate`. Returns null when another run claimed it.
   */
  private async post(
    template: RecurringJournalEntryRecord,
    runDate: string,
    entryDate: string,
    trigger: 'manual' | 'schedule',
  ) {
    const next = nextOccurrence(runDate, template.frequency as Frequency, template.anchorDay);
    if (!(await this.templates.claimOccurrence(template.id, runDate, next, entryDate))) return null as never;
    const runId = newId();
    const { entry, lines } = await this.engine.create({
      entryDate,
      description: template.description ?? template.name,
      entryType: template.entryType,
      sourceType: 'RECURRING_JE',
      sourceId: runId,
      sourceModule: 'accounting',
      status: 'posted',
      manual: false,
      createdBy: trigger === 'schedule' ? null : undefined,
      createdByName: trigger === 'schedule' ? null : await this.engine.keyName(),
      lines: toEngineLines(template.lines),
    });
    await this.templates.recordRun({
      id: runId,
      templateId: template.id,
      runDate,
      journalEntryId: entry.id,
      trigger,
    });
    const updated = await this.templates.getById(template.id);
    await this.events.publish('accounting.recurring_journal_entry.ran', toRecurringTemplate(updated), {
      next_run_date: runDate,
      last_run_date: template.lastRunDate,
      last_journal_entry_id: template.lastJournalEntryId,
    });
    return toJournalEntry(entry, lines);
  }

  /**
   * The scheduled job: every due occurrence (next_run_date on or before the entity's business
   * day, within end_date) is posted once, dated its own occurrence date. Safe with many workers.
   */
  async runDue(now = new Date()): Promise<{ posted: number; failed: number }> {
    const due = await this.templates.dueAcrossEntities(latestBusinessDay(now));
    const profiles = await this.profiles.findMany(due.map((row) => row.entityId));
    let posted = 0;
    let failed = 0;
    for (const row of due) {
      const profile = profiles.get(row.entityId);
      if (!profile) continue;
      const today = businessDay(profile.timezone, now);
      if (row.nextRunDate > today) continue;
      const caller = {
        entityId: row.entityId,
        entityCode: profile.code,
        livemode: row.livemode,
        apiKeyId: row.entityId,
        scopes: ['*'],
      };
      await RequestContext.runAsSystem(
        caller,
        async () => {
          for (;;) {
            const template = await this.templates.findById(row.id);
            if (!template || !template.active || template.nextRunDate > today) return;
            if (template.endDate && template.nextRunDate > template.endDate) return;
            try {
              const entry = await this.tx.run(() =>
                this.post(template, template.nextRunDate, template.nextRunDate, 'schedule'),
              );
              if (entry) posted += 1;
            } catch (error) {
              // A closed period or a changed account leaves the template due; it is retried next time.
              failed += 1;
              this.logger.warn(
                `recurring journal entry ${row.id} could not run for ${template.nextRunDate}: ${String(error)}`,
              );
              return;
            }
          }
        },
        'recurring-journal-entries',
      );
    }
    return { posted, failed };
  }
}
