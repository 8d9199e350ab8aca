import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { DomainError } from '#platform/errors/domain-error';
import { AppMetrics } from '#platform/observability/metrics';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { openPeriod, periodClosed } from '../domain/accounting-period';
import { ROLE_FALLBACKS, rolesWithFallbacks } from '../domain/ledger';
import {
  EntryLine,
  isBalanced,
  lineProblem,
  needsApproval,
  newEntryState,
  totals,
} from '../domain/journal-entry';
import {
  AccountingPeriodRecord,
  JournalEntryRecord,
  JournalLineRecord,
} from '../infrastructure/accounting.entities';
import { JournalEntryRepository } from '../infrastructure/journal-entry.repository';
import { JournalLineRepository } from '../infrastructure/journal-line.repository';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';
import { PeriodRepository } from '../infrastructure/period.repository';
import {
  AccountFacts,
  EntryFacts,
  EntryFactsRepository,
  PeriodFacts,
} from '../infrastructure/entry-facts.repository';
import { EntryToWrite, JournalEntryWriter } from '../infrastructure/journal-entry.writer';
import { AccountingSettingsService } from './accounting-settings.service';
import { JournalEntryResource, toJournalEntry } from './journal-entry.presenter';

/** A line whose account is already resolved to an id. */
export type EngineLine = EntryLine;

export interface PreparedEntry extends EntryToWrite {
  period: PeriodFacts;
}

export interface NewEntry {
  entryDate: string;
  description: string | null;
  entryType: string;
  sourceType: string;
  sourceId?: string | null;
  sourceModule?: string | null;
  batchId?: string | null;
  status: 'draft' | 'posted';
  /** Manual entries get the caller's key name and are subject to the approval threshold. */
  manual: boolean;
  isReversing?: boolean;
  reversalOfId?: string | null;
  reverseInPeriodId?: string | null;
  idempotencyKey?: string | null;
  /** Defaults to the calling API key; null for the scheduler, which acts for no key. */
  createdBy?: string | null;
  /** Defaults to the key name for manual entries, null for system entries. */
  createdByName?: string | null;
  lines: EngineLine[];
  /**
   * Per line, a control role whose account the line posts to (its `accountId` is then ignored and
   * set by the engine, from the same query that checks the accounts); 422 `account_not_postable`
   * on `lines[n].role` when no account holds it.
   */
  controlRoles?: (string | undefined)[];
  /** Name of the request field holding the lines, for `param` (`lines`). */
  linesParam?: string;
}

/**
 * The one place where journal entries are checked and written: the three rules of docs/reference/resources.md
 * (balanced, open period, immutable once posted), postable accounts, gapless numbers.
 */
@Injectable()
export class JournalEngine {
  constructor(
    private readonly tx: TransactionHost,
    private readonly entries: JournalEntryRepository,
    private readonly journalLines: JournalLineRepository,
    private readonly accounts: LedgerAccountRepository,
    private readonly periods: PeriodRepository,
    private readonly entryFacts: EntryFactsRepository,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
    private readonly writer: JournalEntryWriter,
    private readonly metrics: AppMetrics,
  ) {}

  /** Rejects lines that are malformed, reference unknown or non-postable accounts, or do not balance. */
  async checkLines(lines: EngineLine[], linesParam = 'lines'): Promise<void> {
    this.checkLineShapes(lines, linesParam);
    const accounts = await this.accounts.findByIds(lines.map((l) => l.accountId));
    this.checkAccountsAndBalance(lines, new Map(accounts.map((a) => [a.id, a])), linesParam);
  }

  private checkLineShapes(lines: EngineLine[], linesParam: string): void {
    lines.forEach((line, index) => {
      const problem = lineProblem(line, index);
      if (problem) {
        throw new AccountingError('parameter_invalid', {
          param: `${linesParam}[${index}].${problem.field}`,
          hint: `${linesParam}[${index}].${problem.field} ${problem.reason}.`,
        });
      }
    });
  }

  private checkAccountsAndBalance(
    lines: EngineLine[],
    byId: Map<string, AccountFacts>,
    linesParam: string,
  ): void {
    lines.forEach((line, index) => {
      const account = byId.get(line.accountId);
      if (!account) {
        throw new AccountingError('parameter_invalid', {
          param: `${linesParam}[${index}].account_id`,
          hint: `No ledger account with id '${line.accountId}' exists for this entity and mode.`,
        });
      }
      if (!account.postable || !account.active) {
        throw new AccountingError('account_not_postable', {
          param: `${linesParam}[${index}].account_id`,
          hint: `Ledger account ${account.code} (${account.name}) ${account.postable ? 'is inactive' : 'is a header account and is not postable'}.`,
        });
      }
    });
    if (!isBalanced(lines)) {
      const t = totals(lines);
      throw new AccountingError('unbalanced_entry', {
        param: linesParam,
        hint: `Debits (${t.debit.toFixed()}) must equal credits (${t.credit.toFixed()}).`,
      });
    }
  }

  /** Rule 2: the open period covering `date`, share-locked so it cannot close under this transaction. */
  async openPeriodFor(date: string, param = 'entry_date'): Promise<AccountingPeriodRecord> {
    return openPeriod(await this.periods.coveringLocked(date), { date, param });
  }

  /** The calling key's name (null for work no key asked for). */
  keyName(): string | null {
    return RequestContext.caller().apiKeyName ?? null;
  }

  /**
   * Creates an entry (draft, pending approval or posted) with its lines, numbers it and publishes its event.
   *
   * The entry, its lines, its number and its event are written by one statement (JournalEntryWriter).
   * Called outside any transaction, that statement is its own transaction, shared with the entries
   * of the same entity written at the same moment; the counter row is locked only while it commits.
   * Inside a caller's transaction the number is taken at once (the caller may need it before its
   * commit) and stays locked until the caller commits.
   */
  async create(input: NewEntry): Promise<{ entry: JournalEntryRecord; lines: JournalLineRecord[] }> {
    const inTransaction = this.tx.inTransaction;
    const prepared = await this.prepare(input);
    const entryNumber = inTransaction
      ? await this.writer.writeInTransaction(prepared)
      : await this.writer.write(prepared);
    // The period closed between the check and the write: nothing was written.
    if (entryNumber === null) throw periodClosed(prepared.period, { date: input.entryDate });
    // Outside a transaction the writer's own statement committed the event.
    if (!inTransaction) this.events.committedOutside([prepared.event]);
    prepared.entry.entryNumber = entryNumber;
    this.metrics.ledgerPostings.inc({ source_type: input.sourceType, status: prepared.entry.status });
    return { entry: prepared.entry, lines: prepared.lines };
  }

  /**
   * Writes entries built by build() in the caller's open transaction with one statement, numbered
   * at once from the entity's counter row (which stays locked until that transaction commits: the
   * caller writes them last). 422 period_closed when their period closed since the facts were read.
   */
  async writePrepared(prepared: readonly PreparedEntry[]): Promise<void> {
    if (prepared.length === 0) return;
    const numbers = await this.writer.writeManyInTransaction(prepared);
    prepared.forEach((p, i) => {
      if (numbers[i] === null) throw periodClosed(p.period, { date: p.entry.entryDate });
      p.entry.entryNumber = numbers[i];
      this.metrics.ledgerPostings.inc({ source_type: p.entry.sourceType, status: p.entry.status });
    });
  }

  /**
   * Creates entries of any dates in the caller's open transaction (a bulk import's batch): the
   * same checks, numbering, approval rule and event as create() for each, with one query for all
   * their facts (their periods share-locked until that transaction ends) and one statement
   * writing the accepted ones, numbered in input order. Returns, in input order, each created entry
   * or the DomainError that refused it; nothing is written for a refused input.
   */
  async createMany(
    inputs: readonly NewEntry[],
  ): Promise<({ entry: JournalEntryRecord; lines: JournalLineRecord[] } | DomainError)[]> {
    const results: ({ entry: JournalEntryRecord; lines: JournalLineRecord[] } | DomainError)[] = [];
    const shaped: number[] = [];
    inputs.forEach((input, index) => {
      if (input.controlRoles?.length) throw new Error('createMany takes lines naming their accounts');
      try {
        this.checkLineShapes(input.lines, input.linesParam ?? 'lines');
        shaped.push(index);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results[index] = error;
      }
    });
    if (shaped.length === 0) return results;
    const facts = await this.entryFacts.forDatedEntries(
      [...new Set(shaped.flatMap((i) => inputs[i].lines.map((l) => l.accountId)))],
      [...new Set(shaped.map((i) => inputs[i].entryDate))],
    );
    if (!facts.settingsExist) await this.settings.approvalThreshold();
    const prepared: { index: number; entry: PreparedEntry }[] = [];
    for (const index of shaped) {
      const input = inputs[index];
      try {
        const entry = this.build(input, {
          ...facts,
          byRole: new Map(),
          period: facts.periods.get(input.entryDate),
          entryDate: input.entryDate,
        });
        prepared.push({ index, entry });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results[index] = error;
      }
    }
    const numbers = await this.writer.writeManyInTransaction(prepared.map((p) => p.entry));
    prepared.forEach(({ index, entry: p }, i) => {
      // Not written: its period closed between the read and the write (it took no number).
      if (numbers[i] === null) {
        results[index] = periodClosed(p.period, { date: p.entry.entryDate });
        return;
      }
      p.entry.entryNumber = numbers[i];
      this.metrics.ledgerPostings.inc({ source_type: p.entry.sourceType, status: p.entry.status });
      results[index] = { entry: p.entry, lines: p.lines };
    });
    return results;
  }

  /** Checks an entry against its facts and builds its records and event (nothing is written). */
  private async prepare(input: NewEntry): Promise<PreparedEntry> {
    return this.build(input, await this.factsFor([input]));
  }

  /**
   * The facts entries of one date need (accounts by id and by control role, the period, the
   * approval threshold), read by one query for all of `inputs`. Inside a transaction the period is
   * share-locked until commit; outside one a lock would end with the reading statement (and cost a
   * WAL flush), so the writing statement locks the period itself.
   */
  async factsFor(inputs: readonly NewEntry[]): Promise<EntryFacts & { entryDate: string }> {
    const entryDate = inputs[0].entryDate;
    if (inputs.some((i) => i.entryDate !== entryDate))
      throw new Error('Entries read together share their date');
    const accountIds = new Set<string>();
    const roles = new Set<string>();
    for (const input of inputs) {
      this.checkLineShapes(input.lines, input.linesParam ?? 'lines');
      const inputRoles = input.controlRoles ?? [];
      input.lines.forEach((l, i) => (inputRoles[i] ? roles.add(inputRoles[i]) : accountIds.add(l.accountId)));
    }
    const facts = await this.entryFacts.forEntry(
      [...accountIds],
      entryDate,
      this.tx.inTransaction,
      rolesWithFallbacks(roles),
    );
    if (!facts.settingsExist) await this.settings.approvalThreshold();
    return { ...facts, entryDate };
  }

  /**
   * Checks an entry against facts read by factsFor() and builds its records and its event, for
   * the current caller (nothing is written, nothing is read).
   */
  build(input: NewEntry, facts: EntryFacts & { entryDate: string }): PreparedEntry {
    if (input.entryDate !== facts.entryDate) throw new Error('The facts were read for another date');
    const linesParam = input.linesParam ?? 'lines';
    this.checkLineShapes(input.lines, linesParam);
    const roles = input.controlRoles ?? [];
    roles.forEach((role, index) => {
      if (!role) return;
      const fallback = ROLE_FALLBACKS[role];
      const accountId = facts.byRole.get(role) ?? (fallback && facts.byRole.get(fallback));
      if (!accountId)
        throw new AccountingError('account_not_postable', {
          param: `${linesParam}[${index}].role`,
          hint: `No ledger account holds the control role '${role}' for this entity and mode.`,
        });
      input.lines[index].accountId = accountId;
    });
    this.checkAccountsAndBalance(input.lines, facts.accounts, linesParam);
    const period = openPeriod(facts.period, { date: input.entryDate });
    const t = totals(input.lines);
    const threshold =
      input.status === 'posted' && input.manual && facts.approvalThreshold !== null
        ? money(facts.approvalThreshold)
        : null;
    const pending = input.status === 'posted' && needsApproval(t.debit, threshold, input.manual);
    const caller = RequestContext.caller();
    const now = new Date();
    const { status, approvalStatus } = newEntryState(input.status, pending);
    const createdByName =
      input.createdByName !== undefined ? input.createdByName : input.manual ? this.keyName() : null;
    const id = newId();
    const entry = this.entries.build({
      id,
      entityId: caller.entityId,
      livemode: caller.livemode,
      createdAt: now,
      updatedAt: now,
      version: 1,
      periodId: period.id,
      // The placeholder until the writing statement assigns the number.
      entryNumber: `pending-${id}`,
      entryDate: input.entryDate,
      entryType: input.entryType,
      status,
      approvalStatus,
      description: input.description,
      sourceType: input.sourceType,
      sourceId: input.sourceId ?? null,
      sourceModule: input.sourceModule ?? null,
      isReversing: input.isReversing ?? false,
      reversedById: null,
      reversalOfId: input.reversalOfId ?? null,
      reverseInPeriodId: input.reverseInPeriodId ?? null,
      batchId: input.batchId ?? null,
      totalDebit: t.debit,
      totalCredit: t.credit,
      postedAt: status === 'posted' ? now : null,
      approvedAt: null,
      rejectedAt: null,
      approvedBy: null,
      rejectedBy: null,
      rejectionReason: null,
      idempotencyKey: input.idempotencyKey ?? null,
      createdBy: input.createdBy !== undefined ? input.createdBy : caller.apiKeyId,
      createdByName,
    });
    const lines = this.lineRecords(entry, input.lines, now);
    // The event carries the placeholder; the writing statement puts the number in.
    const event = this.events.outboxRow(
      status === 'posted' ? 'accounting.journal_entry.posted' : 'accounting.journal_entry.created',
      toJournalEntry(entry),
    );
    return { entry, lines, event, period };
  }

  /** Line records of `entry`, numbered from 1 in order. */
  private lineRecords(entry: JournalEntryRecord, lines: EngineLine[], now?: Date): JournalLineRecord[] {
    return lines.map((l, i) =>
      this.journalLines.build({
        id: newId(),
        entityId: entry.entityId,
        livemode: entry.livemode,
        ...(now ? { createdAt: now, updatedAt: now, version: 1 } : {}),
        journalEntryId: entry.id,
        lineNumber: i + 1,
        accountId: l.accountId,
        debitAmount: l.debit,
        creditAmount: l.credit,
        description: l.description ?? null,
        locationId: l.locationId ?? null,
        departmentId: l.departmentId ?? null,
        classId: l.classId ?? null,
        projectId: l.projectId ?? null,
        reconciled: false,
        reconciledAt: null,
      }),
    );
  }

  async insertLines(entry: JournalEntryRecord, lines: EngineLine[]): Promise<JournalLineRecord[]> {
    const records = this.lineRecords(entry, lines);
    await this.journalLines.insertAll(records);
    return records;
  }

  async linesOf(entryId: string): Promise<JournalLineRecord[]> {
    return this.journalLines.ofEntry(entryId);
  }

  async present(entry: JournalEntryRecord): Promise<JournalEntryResource> {
    return toJournalEntry(entry, await this.linesOf(entry.id));
  }
}
