import { Injectable, OnModuleInit } from '@nestjs/common';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { assertDateRange, fiscalYearTransition } from '../domain/accounting-period';
import { addDays, addMonths } from '../domain/calendar';
import { FiscalYearRepository } from '../infrastructure/fiscal-year.repository';
import { AccountingPeriodsService } from './accounting-periods.service';
import { toFiscalYear } from './fiscal-year.presenter';
import { allRecords, ResourceReads } from '#platform/http/list/resource-reads';
import type { FiscalYearRecord } from '../infrastructure/accounting.entities';

/** Fiscal years: created with their monthly periods, closed and reopened as a whole. */
@Injectable()
export class FiscalYearsService
  extends ResourceReads<FiscalYearRecord, ReturnType<typeof toFiscalYear>, ListQueryDto>
  implements OnModuleInit
{
  constructor(
    private readonly tx: TransactionHost,
    private readonly years: FiscalYearRepository,
    private readonly periods: AccountingPeriodsService,
    private readonly resources: ResourceRegistry,
  ) {
    super(allRecords(years), toFiscalYear);
  }

  onModuleInit(): void {
    this.resources.registerRecords('fiscal_year', this.years, toFiscalYear);
  }

  /** A fiscal year; with `monthly_periods` (default) it is split into calendar-month periods. */
  async create(input: { name: string; start_date: string; end_date: string; monthly_periods?: boolean }) {
    return this.tx.run(async () => {
      assertDateRange(input.start_date, input.end_date);
      const year = await this.years.create({
        name: input.name,
        startDate: input.start_date,
        endDate: input.end_date,
        status: 'open',
        closedAt: null,
      });
      if (input.monthly_periods ?? true) {
        let start = input.start_date;
        while (start <= input.end_date) {
          const nextStart = addMonths(start, 1);
          const end = addDays(nextStart, -1) < input.end_date ? addDays(nextStart, -1) : input.end_date;
          await this.periods.insert({
            name: `${input.name} ${start.slice(0, 7)}`,
            start_date: start,
            end_date: end,
            fiscal_year_id: year.id,
          });
          start = nextStart;
        }
      }
      return toFiscalYear(year);
    });
  }

  /** Closes every open period of the year (each must be free of drafts and pending entries), then the year. */
  async close(id: string) {
    return this.tx.run(async () => {
      const year = await this.years.getForUpdate(id);
      const next = fiscalYearTransition('close', year.status);
      await this.periods.closeAllOfYear(id);
      year.status = next;
      year.closedAt = new Date();
      return toFiscalYear(await this.years.save(year));
    });
  }

  async reopen(id: string) {
    return this.tx.run(async () => {
      const year = await this.years.getForUpdate(id);
      year.status = fiscalYearTransition('reopen', year.status);
      year.closedAt = null;
      return toFiscalYear(await this.years.save(year));
    });
  }
}
