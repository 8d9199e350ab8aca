import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountingError } from '../domain/accounting-error';
import { assertDateRange, periodsClosedWithYear, periodTransition } from '../domain/accounting-period';
import { AccountingPeriodRecord } from '../infrastructure/accounting.entities';
import { FiscalYearRepository } from '../infrastructure/fiscal-year.repository';
import { JournalEntryRepository } from '../infrastructure/journal-entry.repository';
import { PeriodRepository } from '../infrastructure/period.repository';
import { toPeriod } from './accounting-period.presenter';

export interface PeriodInput {
  name: string;
  start_date: string;
  end_date: string;
  fiscal_year_id?: string | null;
}

/** The fields expand[] follows on accounting_period (declared when the module loads, for the OpenAPI description). */
const ACCOUNTING_PERIOD_EXPANSIONS = expandableFields(
  'accounting_period',
  references({ fiscal_year: 'fiscal_year' }),
);

/** Accounting periods: the date ranges entries are posted in, closed and reopened by the state machine. */
@Injectable()
export class AccountingPeriodsService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly periods: PeriodRepository,
    private readonly years: FiscalYearRepository,
    private readonly entries: JournalEntryRepository,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords('accounting_period', this.periods, toPeriod, ACCOUNTING_PERIOD_EXPANSIONS);
  }

  /** Inserts a period inside the caller's transaction; 409 resource_conflict when it overlaps another. */
  async insert(input: PeriodInput): Promise<AccountingPeriodRecord> {
    await this.periods.lockForCreation();
    const overlap = await this.periods.overlapping(input.start_date, input.end_date);
    if (overlap) {
      throw new AccountingError('resource_conflict', {
        param: 'start_date',
        hint: `The dates overlap accounting period ${overlap.name} (${overlap.startDate}..${overlap.endDate}).`,
        details: { existing_id: overlap.id },
      });
    }
    return this.periods.create({
      name: input.name,
      fiscalYearId: input.fiscal_year_id ?? null,
      startDate: input.start_date,
      endDate: input.end_date,
      status: 'open',
      closedAt: null,
    });
  }

  async create(input: PeriodInput) {
    return this.tx.run(async () => {
      assertDateRange(input.start_date, input.end_date);
      if (input.fiscal_year_id && !(await this.years.findById(input.fiscal_year_id))) {
        throw new AccountingError('parameter_invalid', {
          param: 'fiscal_year_id',
          hint: `No fiscal year with id '${input.fiscal_year_id}'.`,
        });
      }
      return toPeriod(await this.insert(input));
    });
  }

  async list(query: ListQueryDto & { status?: string; fiscal_year_id?: string }, url: string) {
    const page = await this.periods.pageFiltered(query, url);
    return listEnvelope(page.rows.map(toPeriod), page, url);
  }

  async retrieve(id: string) {
    return toPeriod(await this.periods.getById(id));
  }

  /** Closes a locked period inside the caller's transaction; refused while it holds drafts or pending entries. */
  async closeLocked(period: AccountingPeriodRecord) {
    const unfinishedEntries = await this.entries.unfinishedInPeriod(period.id);
    period.status = periodTransition('close', {
      name: period.name,
      status: period.status,
      unfinishedEntries,
    });
    period.closedAt = new Date();
    const resource = toPeriod(await this.periods.save(period));
    await this.events.publish('accounting.period.closed', resource, { status: 'open', closed_at: null });
    return resource;
  }

  /** Closes every open period of a fiscal year, in date order, inside the caller's transaction. */
  async closeAllOfYear(fiscalYearId: string): Promise<void> {
    for (const period of periodsClosedWithYear(await this.periods.ofFiscalYear(fiscalYearId))) {
      await this.closeLocked(await this.periods.getForUpdate(period.id));
    }
  }

  /** Refused while the period holds drafts or entries pending approval. */
  async close(id: string) {
    return this.tx.run(async () => {
      const period = await this.periods.getForUpdate(id);
      periodTransition('close', { name: period.name, status: period.status });
      return this.closeLocked(period);
    });
  }

  /** Refused while the period's fiscal year is closed. */
  async reopen(id: string) {
    return this.tx.run(async () => {
      const period = await this.periods.getForUpdate(id);
      periodTransition('reopen', { name: period.name, status: period.status });
      const year = period.fiscalYearId ? await this.years.findById(period.fiscalYearId) : null;
      const closedAt = period.closedAt?.toISOString() ?? null;
      period.status = periodTransition('reopen', {
        name: period.name,
        status: period.status,
        fiscalYear: year ? { name: year.name, status: year.status } : null,
      });
      period.closedAt = null;
      const resource = toPeriod(await this.periods.save(period));
      await this.events.publish('accounting.period.reopened', resource, {
        status: 'closed',
        closed_at: closedAt,
      });
      return resource;
    });
  }
}
