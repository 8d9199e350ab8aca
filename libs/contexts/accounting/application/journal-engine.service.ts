import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { In } from 'typeorm';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { newId } from '../../../platform/persistence/ids';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { isBalanced, lineProblem, needsApproval, totals } from '../domain/journal-entry';
import {
  AccountingPeriodRecord, JournalEntryRecord, JournalLineRecord, LedgerAccountRecord,
} from '../infrastructure/accounting.entities';
import { JournalEntryRepository, PeriodRepository } from '../infrastructure/accounting.repositories';
import { AccountingSettingsService } from './accounting-settings.service';
import { JournalEntryResource, toJournalEntry } from './presenters';

/** A line whose account is already resolved to an id. */
export interface EngineLine {
  accountId: string;
  debit: Decimal;
  credit: Decimal;
  description?: string | null;
  locationId?: string | null;
  departmentId?: string | null;
  classId?: string | null;
  projectId?: string | null;
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
  /** Name of the request field holding the lines, for `param` (`lines`). */
  linesParam?: string;
}

/**
 * The one place where journal entries are checked and written: the three rules of SPEC.md
 * (balanced, open period, immutable once posted), postable accounts, gapless numbers.
 */
@Injectable()
export class JournalEngine {
  constructor(
    private readonly tx: TransactionHost,
    private readonly entries: JournalEntryRepository,
    private readonly periods: PeriodRepository,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
  ) {}

  /** Rejects lines that are malformed, reference unknown or non-postable accounts, or do not balance. */
  async checkLines(lines: EngineLine[], linesParam = 'lines'): Promise<void> {
    lines.forEach((line, index) => {
      const problem = lineProblem(line, index);
      if (problem) {
        throw new AccountingError('parameter_invalid', {
          param: `${linesParam}[${index}].${problem.field}`,
          hint: `${linesParam}[${index}].${problem.field} ${problem.reason}.`,
        });
      }
    });
    const { entityId, livemode } = RequestContext.caller();
    const ids = [...new Set(lines.map((l) => l.accountId))];
    const accounts = ids.length
      ? await this.tx.manager.getRepository(LedgerAccountRecord).find({ where: { id: In(ids), entityId, livemode } })
      : [];
    const byId = new Map(accounts.map((a) => [a.id, a]));
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
    const period = await this.periods
      .scopedQuery('p')
      .andWhere('p.start_date <= :date AND p.end_date >= :date', { date })
      .setLock('pessimistic_read')
      .getOne();
    if (!period) throw new AccountingError('period_closed', { param, hint: `No accounting period covers ${date}.` });
    if (period.status !== 'open') {
      throw new AccountingError('period_closed', { param, hint: `The accounting period ${period.name} covering ${date} is closed.` });
    }
    return period;
  }

  async keyName(): Promise<string | null> {
    const rows: { name: string }[] = await this.tx.manager.query(`SELECT name FROM api_keys WHERE id = $1`, [
      RequestContext.caller().apiKeyId,
    ]);
    return rows[0]?.name ?? null;
  }

  /** Creates an entry (draft, pending approval or posted) with its lines, numbers it and publishes its event. */
  async create(input: NewEntry): Promise<{ entry: JournalEntryRecord; lines: JournalLineRecord[] }> {
    return this.tx.run(async () => {
      await this.checkLines(input.lines, input.linesParam);
      const period = await this.openPeriodFor(input.entryDate);
      const t = totals(input.lines);
      const threshold = input.status === 'posted' && input.manual ? await this.settings.approvalThreshold() : null;
      const pending = input.status === 'posted' && needsApproval(t.debit, threshold, input.manual);
      const caller = RequestContext.caller();
      const now = new Date();
      const status = input.status === 'draft' ? 'draft' : pending ? 'pending_approval' : 'posted';
      const createdByName = input.createdByName !== undefined ? input.createdByName : input.manual ? await this.keyName() : null;
      const id = newId();
      const entry = this.tx.transactional.getRepository(JournalEntryRecord).create({
        id,
        entityId: caller.entityId,
        livemode: caller.livemode,
        periodId: period.id,
        // A placeholder until the number is assigned, last, so the counter row stays locked only until commit.
        entryNumber: `pending-${id}`,
        entryDate: input.entryDate,
        entryType: input.entryType,
        status,
        approvalStatus: status === 'draft' ? null : pending ? 'pending_approval' : 'auto_approved',
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
      // insert() reads the generated columns (timestamps, version) back with RETURNING: no re-read needed.
      await this.tx.transactional.getRepository(JournalEntryRecord).insert(entry);
      const lines = await this.insertLines(entry, input.lines);
      entry.entryNumber = await this.settings.assignEntryNumber(entry.id);
      await this.events.publish(status === 'posted' ? 'journal_entry.posted' : 'journal_entry.created', toJournalEntry(entry));
      return { entry, lines };
    });
  }

  async insertLines(entry: JournalEntryRecord, lines: EngineLine[]): Promise<JournalLineRecord[]> {
    const repo = this.tx.transactional.getRepository(JournalLineRecord);
    const records = lines.map((l, i) =>
      repo.create({
        id: newId(),
        entityId: entry.entityId,
        livemode: entry.livemode,
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
    await repo.insert(records);
    return records;
  }

  async linesOf(entryId: string): Promise<JournalLineRecord[]> {
    return this.tx.manager.getRepository(JournalLineRecord).find({ where: { journalEntryId: entryId }, order: { lineNumber: 'ASC' } });
  }

  async present(entry: JournalEntryRecord): Promise<JournalEntryResource> {
    return toJournalEntry(entry, await this.linesOf(entry.id));
  }
}
