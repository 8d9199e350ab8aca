import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainError } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { openPeriod } from '../domain/accounting-period';
import {
  ApprovalStatus,
  EntryAction,
  EntryState,
  EntryStatus,
  entryTransition,
  needsApproval,
  sameEntryContent,
  swapSides,
  totals,
} from '../domain/journal-entry';
import { JournalEntryRecord, JournalLineRecord } from '../infrastructure/accounting.entities';
import { JournalEntryRepository } from '../infrastructure/journal-entry.repository';
import { JournalLineRepository } from '../infrastructure/journal-line.repository';
import { PeriodRepository } from '../infrastructure/period.repository';
import { AccountingSettingsService } from './accounting-settings.service';
import { EngineLine, JournalEngine, NewEntry } from './journal-engine.service';
import { JournalEntryResource, toJournalEntry } from './journal-entry.presenter';

export interface LineInput {
  account_id: string;
  debit_amount?: number;
  credit_amount?: number;
  description?: string | null;
  location_id?: string | null;
  department_id?: string | null;
  class_id?: string | null;
  project_id?: string | null;
}

export interface CreateEntryInput {
  entry_date: string;
  description?: string | null;
  entry_type?: string;
  source_type?: string;
  status?: 'draft' | 'posted';
  lines: LineInput[];
}

export interface EntryFilters {
  batch_id?: string;
  status?: string;
  source_type?: string;
  period_id?: string;
}

/** A line in the API's fields: a request's (amounts as numbers) or a stored template's (decimal strings). */
type ApiLine = Omit<LineInput, 'debit_amount' | 'credit_amount'> & {
  debit_amount?: number | string;
  credit_amount?: number | string;
};

export const toEngineLines = (lines: readonly ApiLine[]): EngineLine[] =>
  lines.map((l) => ({
    accountId: l.account_id,
    debit: money(String(l.debit_amount ?? 0)),
    credit: money(String(l.credit_amount ?? 0)),
    description: l.description ?? null,
    locationId: l.location_id ?? null,
    departmentId: l.department_id ?? null,
    classId: l.class_id ?? null,
    projectId: l.project_id ?? null,
  }));

const fromRecords = (lines: JournalLineRecord[]): EngineLine[] =>
  lines.map((l) => ({
    accountId: l.accountId,
    debit: l.debitAmount,
    credit: l.creditAmount,
    description: l.description,
    locationId: l.locationId,
    departmentId: l.departmentId,
    classId: l.classId,
    projectId: l.projectId,
  }));

/** A manual entry (POST /journal-entries, imports) as the engine takes it. */
const manualEntry = (input: CreateEntryInput, idempotencyKey?: string): NewEntry => ({
  entryDate: input.entry_date,
  description: input.description ?? null,
  entryType: input.entry_type ?? 'manual',
  sourceType: input.source_type ?? 'MANUAL',
  status: input.status ?? 'posted',
  manual: true,
  idempotencyKey: idempotencyKey ?? null,
  lines: toEngineLines(input.lines),
});

/** The fields expand[] follows on journal_entry (declared when the module loads, for the OpenAPI description). */
const JOURNAL_ENTRY_EXPANSIONS = expandableFields('journal_entry', {
  period: { kind: 'reference', source: 'period_id', target: 'period', resource: 'accounting_period' },
  reversed_by: {
    kind: 'reference',
    source: 'reversed_by_id',
    target: 'reversed_by',
    resource: 'journal_entry',
  },
  reversal_of: {
    kind: 'reference',
    source: 'reversal_of_id',
    target: 'reversal_of',
    resource: 'journal_entry',
  },
  lines: { kind: 'embedded', resource: 'journal_line' },
});

/** The fields expand[] follows on journal_line (declared when the module loads, for the OpenAPI description). */
const JOURNAL_LINE_EXPANSIONS = expandableFields('journal_line', {
  account: { kind: 'reference', source: 'account_id', target: 'account', resource: 'ledger_account' },
});

/** Manual journal entries: creation, drafts, approval workflow, posting, voiding and reversal. */
@Injectable()
export class JournalEntriesService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly entries: JournalEntryRepository,
    private readonly lines: JournalLineRepository,
    private readonly periods: PeriodRepository,
    private readonly engine: JournalEngine,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'journal_entry',
      fields: JOURNAL_ENTRY_EXPANSIONS,
      load: (ids) =>
        this.entries.presentByIds(ids, (rows) => Promise.all(rows.map((e) => this.engine.present(e)))),
    });
    this.resources.register({
      name: 'journal_line',
      fields: JOURNAL_LINE_EXPANSIONS,
    });
  }

  async create(input: CreateEntryInput, idempotencyKey?: string) {
    const { entry, lines } = await this.engine.create(manualEntry(input, idempotencyKey));
    return toJournalEntry(entry, lines);
  }

  /**
   * Creates many manual entries in one go inside the caller's transaction (a bulk import's batch),
   * each with create()'s rules, numbering, approval rule and event. Returns, in input order, each
   * entry or the DomainError that refused it.
   */
  async createMany(inputs: readonly CreateEntryInput[]): Promise<(JournalEntryResource | DomainError)[]> {
    return this.tx.run(async () => {
      const created = await this.engine.createMany(inputs.map((input) => manualEntry(input)));
      return created.map((c) => (c instanceof DomainError ? c : toJournalEntry(c.entry, c.lines)));
    });
  }

  /**
   * Bulk import of one entry known by its external id. New: create() (same checks, numbering,
   * approval rule and accounting.journal_entry.posted/created event). Known draft: update(), then post()
   * unless the record asks for a draft. Known entry past draft: immutable, so the same content is
   * a no-op and different content is refused with invalid_state naming its status.
   */
  async importEntry(input: CreateEntryInput, existingId: string | null): Promise<{ id: string }> {
    if (!existingId) return this.create(input);
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(existingId);
      const wanted = input.status ?? 'posted';
      if (entry.status === 'draft') {
        const { status: _status, ...changes } = input;
        await this.update(entry.id, changes);
        return wanted === 'posted' ? this.post(entry.id) : { id: entry.id };
      }
      const same =
        wanted === 'posted' &&
        sameEntryContent(
          { ...entry, lines: fromRecords(await this.engine.linesOf(entry.id)) },
          {
            entryDate: input.entry_date,
            description: input.description ?? null,
            entryType: input.entry_type ?? 'manual',
            sourceType: input.source_type ?? 'MANUAL',
            lines: toEngineLines(input.lines),
          },
        );
      if (!same) {
        throw new AccountingError('invalid_state', {
          hint: `Journal entry ${entry.entryNumber} was imported before and has status '${entry.status}'; only a draft can change, so a re-import must carry the same content.`,
          details: { status: entry.status },
        });
      }
      return { id: entry.id };
    });
  }

  async list(query: ListQueryDto & EntryFilters, url: string) {
    const page = await this.entries.list(query, url);
    return listEnvelope(
      page.rows.map((e) => toJournalEntry(e)),
      page,
      url,
    );
  }

  async retrieve(id: string) {
    return this.engine.present(await this.entries.getById(id));
  }

  /** The state `action` leads the entry to (the domain's state machine), or 409 invalid_state. */
  private transition(
    entry: JournalEntryRecord,
    action: EntryAction,
    options: { needsApproval?: boolean } = {},
  ): EntryState {
    return entryTransition(
      action,
      { status: entry.status as EntryStatus, approvalStatus: entry.approvalStatus as ApprovalStatus | null },
      options,
    );
  }

  private assertStatus(entry: JournalEntryRecord, action: EntryAction): void {
    this.transition(entry, action);
  }

  private apply(entry: JournalEntryRecord, state: EntryState): void {
    entry.status = state.status;
    entry.approvalStatus = state.approvalStatus;
  }

  /** Drafts only: replaces the given fields (and all lines when `lines` is sent). */
  async update(id: string, changes: Partial<Omit<CreateEntryInput, 'status'>>) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      this.assertStatus(entry, 'update');
      const lines = changes.lines
        ? toEngineLines(changes.lines)
        : fromRecords(await this.engine.linesOf(entry.id));
      await this.engine.checkLines(lines);
      const date = changes.entry_date ?? entry.entryDate;
      const period = await this.engine.openPeriodFor(date);
      if (changes.entry_date !== undefined) entry.entryDate = changes.entry_date;
      if (changes.description !== undefined) entry.description = changes.description ?? null;
      if (changes.entry_type !== undefined) entry.entryType = changes.entry_type;
      if (changes.source_type !== undefined) entry.sourceType = changes.source_type;
      entry.periodId = period.id;
      const t = totals(lines);
      entry.totalDebit = t.debit;
      entry.totalCredit = t.credit;
      if (changes.lines) {
        await this.lines.deleteOfEntry(entry.id);
        await this.engine.insertLines(entry, lines);
      }
      return this.engine.present(await this.entries.save(entry));
    });
  }

  /** Drafts only; other entries are voided or reversed, never deleted. */
  async delete(id: string) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      this.assertStatus(entry, 'delete');
      await this.entries.delete(entry);
      return { id, object: 'journal_entry' as const, deleted: true as const };
    });
  }

  /** Draft -> posted (or pending_approval when the approval threshold applies). */
  async post(id: string) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      this.assertStatus(entry, 'post');
      await this.engine.checkLines(fromRecords(await this.engine.linesOf(entry.id)));
      entry.periodId = (await this.engine.openPeriodFor(entry.entryDate)).id;
      // Drafts exist only as manual entries (system postings are never drafts).
      const next = this.transition(entry, 'post', {
        needsApproval: needsApproval(entry.totalDebit, await this.settings.approvalThreshold(), true),
      });
      this.apply(entry, next);
      if (next.status === 'pending_approval') {
        const saved = await this.entries.save(entry);
        await this.events.publish('accounting.journal_entry.created', toJournalEntry(saved), {
          status: 'draft',
          approval_status: null,
        });
        return this.engine.present(saved);
      }
      entry.postedAt = new Date();
      const saved = await this.entries.save(entry);
      await this.events.publish('accounting.journal_entry.posted', toJournalEntry(saved), {
        status: 'draft',
        approval_status: null,
      });
      return this.engine.present(saved);
    });
  }

  async approve(id: string) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      const next = this.transition(entry, 'approve');
      entry.periodId = (await this.engine.openPeriodFor(entry.entryDate)).id;
      const now = new Date();
      this.apply(entry, next);
      entry.approvedAt = now;
      entry.approvedBy = RequestContext.caller().apiKeyId;
      entry.postedAt = now;
      const saved = await this.entries.save(entry);
      const resource = toJournalEntry(saved);
      const previous = { status: 'pending_approval', approval_status: 'pending_approval' };
      await this.events.publish('accounting.journal_entry.approved', resource, previous);
      await this.events.publish('accounting.journal_entry.posted', resource, previous);
      return this.engine.present(saved);
    });
  }

  async reject(id: string, { rejection_reason: reason }: { rejection_reason: string }) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      this.apply(entry, this.transition(entry, 'reject'));
      entry.rejectedAt = new Date();
      entry.rejectedBy = RequestContext.caller().apiKeyId;
      entry.rejectionReason = reason;
      const saved = await this.entries.save(entry);
      await this.events.publish('accounting.journal_entry.rejected', toJournalEntry(saved), {
        status: 'pending_approval',
        approval_status: 'pending_approval',
      });
      return this.engine.present(saved);
    });
  }

  async void(id: string) {
    return this.tx.run(async () => {
      const entry = await this.entries.getForUpdate(id);
      const next = this.transition(entry, 'void');
      const previous = { status: entry.status };
      this.apply(entry, next);
      const saved = await this.entries.save(entry);
      await this.events.publish('accounting.journal_entry.voided', toJournalEntry(saved), previous);
      return this.engine.present(saved);
    });
  }

  /**
   * Posts a reversing entry with every debit and credit swapped, dated `entry_date`, or the
   * first day of `reverse_in_period_id`, or else the original's date; the original becomes `reversed`.
   */
  async reverse(id: string, options: { entry_date?: string; reverse_in_period_id?: string }) {
    return this.tx.run(async () => {
      const original = await this.entries.getForUpdate(id);
      const reversed = this.transition(original, 'reverse');
      let entryDate = options.entry_date ?? original.entryDate;
      let reverseInPeriodId: string | null = null;
      if (options.reverse_in_period_id) {
        const period = await this.periods.findById(options.reverse_in_period_id);
        if (!period) {
          throw new AccountingError('parameter_invalid', {
            param: 'reverse_in_period_id',
            hint: `No accounting period with id '${options.reverse_in_period_id}' exists for this entity and mode.`,
          });
        }
        openPeriod(period, { param: 'reverse_in_period_id' });
        entryDate = period.startDate;
        reverseInPeriodId = period.id;
      }
      const lines = swapSides(fromRecords(await this.engine.linesOf(original.id)));
      const { entry: reversal } = await this.engine.create({
        entryDate,
        description: `Reversal of ${original.entryNumber}${original.description ? `: ${original.description}` : ''}`,
        entryType: original.entryType,
        sourceType: 'MANUAL_REVERSAL',
        sourceId: original.id,
        sourceModule: 'accounting',
        batchId: original.batchId,
        status: 'posted',
        manual: false,
        isReversing: true,
        reversalOfId: original.id,
        reverseInPeriodId: reverseInPeriodId ?? null,
        createdByName: await this.engine.keyName(),
        lines,
      });
      this.apply(original, reversed);
      original.reversedById = reversal.id;
      original.reverseInPeriodId = reverseInPeriodId;
      const saved = await this.entries.save(original);
      await this.events.publish('accounting.journal_entry.reversed', toJournalEntry(saved), {
        status: 'posted',
        reversed_by_id: null,
      });
      return this.engine.present(saved);
    });
  }
}
