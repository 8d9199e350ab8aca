import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { ResourceRegistry } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope } from '../../../platform/http/list/paginate';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { AccountingError, invalidState } from '../domain/accounting-error';
import { addDays, addMonths } from '../domain/calendar';
import { AccountType, normalBalanceOf, NormalBalance } from '../domain/ledger';
import { AccountingPeriodRecord, LedgerAccountRecord } from '../infrastructure/accounting.entities';
import {
  FiscalYearRepository,
  JournalEntryRepository,
  LedgerAccountRepository,
  PeriodRepository,
} from '../infrastructure/accounting.repositories';
import { toFiscalYear, toLedgerAccount, toPeriod } from './presenters';

export interface AccountInput {
  code: string;
  name: string;
  type: AccountType;
  normal_balance?: NormalBalance;
  postable?: boolean;
  parent_id?: string | null;
  control_role?: string | null;
  description?: string | null;
  active?: boolean;
  is_bank?: boolean;
}

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === constraint;

/** Only asset accounts can be bank accounts. */
function checkBankFlag(isBank: boolean, type: string): void {
  if (isBank && type !== 'asset') {
    throw new AccountingError('parameter_invalid', {
      param: 'is_bank',
      hint: `Only asset accounts can be bank accounts; this one is '${type}'.`,
    });
  }
}

/** Chart of accounts, fiscal years and accounting periods. */
@Injectable()
export class LedgerService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly accounts: LedgerAccountRepository,
    private readonly years: FiscalYearRepository,
    private readonly periods: PeriodRepository,
    private readonly entries: JournalEntryRepository,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'ledger_account',
      fields: {
        parent: { kind: 'reference', source: 'parent_id', target: 'parent', resource: 'ledger_account' },
      },
      load: async (ids) =>
        new Map((await this.accounts.findByIds(ids)).map((a) => [a.id, toLedgerAccount(a)])),
    });
    this.resources.register({
      name: 'accounting_period',
      fields: {
        fiscal_year: {
          kind: 'reference',
          source: 'fiscal_year_id',
          target: 'fiscal_year',
          resource: 'fiscal_year',
        },
      },
      load: async (ids) => new Map((await this.periods.findByIds(ids)).map((p) => [p.id, toPeriod(p)])),
    });
    this.resources.register({
      name: 'fiscal_year',
      fields: {},
      load: async (ids) => new Map((await this.years.findByIds(ids)).map((y) => [y.id, toFiscalYear(y)])),
    });
  }

  private async checkParent(parentId: string | null | undefined, selfId?: string): Promise<void> {
    if (!parentId) return;
    const parent = await this.accounts.findById(parentId);
    if (!parent || parent.id === selfId) {
      throw new AccountingError('parameter_invalid', {
        param: 'parent_id',
        hint: `No other ledger account with id '${parentId}' exists.`,
      });
    }
  }

  /** Unique code and control role per entity and mode become 409 resource_conflict. */
  private async saving<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error, 'ledger_accounts_code')) {
        throw new AccountingError('resource_conflict', {
          param: 'code',
          hint: 'Another ledger account already has this code.',
        });
      }
      if (isUniqueViolation(error, 'ledger_accounts_role')) {
        throw new AccountingError('resource_conflict', {
          param: 'control_role',
          hint: 'Another ledger account already holds this control role.',
        });
      }
      throw error;
    }
  }

  async createAccount(input: AccountInput) {
    return this.saving(() =>
      this.tx.run(async () => {
        await this.checkParent(input.parent_id);
        checkBankFlag(input.is_bank ?? false, input.type);
        const account = await this.accounts.create({
          code: input.code,
          name: input.name,
          type: input.type,
          normalBalance: input.normal_balance ?? normalBalanceOf(input.type),
          postable: input.postable ?? true,
          parentId: input.parent_id ?? null,
          controlRole: input.control_role ?? null,
          description: input.description ?? null,
          active: input.active ?? true,
          isBank: input.is_bank ?? false,
        });
        const resource = toLedgerAccount(account);
        await this.events.publish('accounting.ledger_account.created', resource);
        return resource;
      }),
    );
  }

  async listAccounts(
    query: ListQueryDto & { type?: string; control_role?: string; postable?: boolean },
    url: string,
  ) {
    const page = await this.accounts.page(query, { url }, (qb) => {
      if (query.type) qb.andWhere('r.type = :type', { type: query.type });
      if (query.control_role) qb.andWhere('r.control_role = :role', { role: query.control_role });
      if (query.postable !== undefined) qb.andWhere('r.postable = :postable', { postable: query.postable });
    });
    return listEnvelope(page.rows.map(toLedgerAccount), page, url);
  }

  async retrieveAccount(id: string) {
    return toLedgerAccount(await this.accounts.getById(id));
  }

  async updateAccount(id: string, changes: Partial<AccountInput>) {
    return this.saving(() =>
      this.tx.run(async () => {
        const account = await this.accounts.getForUpdate(id);
        const before = toLedgerAccount(account);
        if (changes.parent_id !== undefined) await this.checkParent(changes.parent_id, account.id);
        if (changes.code !== undefined) account.code = changes.code;
        if (changes.name !== undefined) account.name = changes.name;
        if (changes.type !== undefined) {
          account.type = changes.type;
          if (changes.normal_balance === undefined) account.normalBalance = normalBalanceOf(changes.type);
        }
        if (changes.normal_balance !== undefined) account.normalBalance = changes.normal_balance;
        if (changes.postable !== undefined) account.postable = changes.postable;
        if (changes.parent_id !== undefined) account.parentId = changes.parent_id;
        if (changes.control_role !== undefined) account.controlRole = changes.control_role;
        if (changes.description !== undefined) account.description = changes.description;
        if (changes.active !== undefined) account.active = changes.active;
        if (changes.is_bank !== undefined) account.isBank = changes.is_bank;
        checkBankFlag(account.isBank, account.type);
        const after = toLedgerAccount(account);
        const previous: Record<string, unknown> = {};
        for (const key of Object.keys(after) as (keyof typeof after)[]) {
          if (!['updated_at', 'created_at'].includes(key) && before[key] !== after[key])
            previous[key] = before[key];
        }
        if (Object.keys(previous).length === 0) return before;
        const resource = toLedgerAccount(await this.accounts.save(account));
        await this.events.publish('accounting.ledger_account.updated', resource, previous);
        return resource;
      }),
    );
  }

  // Fiscal years and periods

  /** A fiscal year; with `monthly_periods` it is split into calendar-month periods. */
  async createFiscalYear(input: {
    name: string;
    start_date: string;
    end_date: string;
    monthly_periods?: boolean;
  }) {
    return this.tx.run(async () => {
      if (input.end_date < input.start_date) {
        throw new AccountingError('parameter_invalid', {
          param: 'end_date',
          hint: 'end_date must not be before start_date.',
        });
      }
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
          await this.insertPeriod({
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

  async listFiscalYears(query: ListQueryDto, url: string) {
    const page = await this.years.page(query, { url });
    return listEnvelope(page.rows.map(toFiscalYear), page, url);
  }

  async retrieveFiscalYear(id: string) {
    return toFiscalYear(await this.years.getById(id));
  }

  /** Closes every open period of the year (each must be free of drafts and pending entries), then the year. */
  async closeFiscalYear(id: string) {
    return this.tx.run(async () => {
      const year = await this.years.getForUpdate(id);
      if (year.status !== 'open') throw invalidState('fiscal year', year.status, 'close', ['open']);
      const periods = await this.periods
        .scopedQuery('p')
        .andWhere('p.fiscal_year_id = :id', { id })
        .orderBy('p.start_date')
        .getMany();
      for (const period of periods.filter((p) => p.status === 'open'))
        await this.closePeriodRecord(await this.periods.getForUpdate(period.id));
      year.status = 'closed';
      year.closedAt = new Date();
      return toFiscalYear(await this.years.save(year));
    });
  }

  async reopenFiscalYear(id: string) {
    return this.tx.run(async () => {
      const year = await this.years.getForUpdate(id);
      if (year.status !== 'closed') throw invalidState('fiscal year', year.status, 'reopen', ['closed']);
      year.status = 'open';
      year.closedAt = null;
      return toFiscalYear(await this.years.save(year));
    });
  }

  private async insertPeriod(input: {
    name: string;
    start_date: string;
    end_date: string;
    fiscal_year_id?: string | null;
  }) {
    // Serializes period creation per entity and mode so two overlapping periods cannot both pass the check.
    const { entityId, livemode } = RequestContext.caller();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `accounting_periods:${entityId}:${livemode}`,
    ]);
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

  async createPeriod(input: {
    name: string;
    start_date: string;
    end_date: string;
    fiscal_year_id?: string | null;
  }) {
    return this.tx.run(async () => {
      if (input.end_date < input.start_date) {
        throw new AccountingError('parameter_invalid', {
          param: 'end_date',
          hint: 'end_date must not be before start_date.',
        });
      }
      if (input.fiscal_year_id && !(await this.years.findById(input.fiscal_year_id))) {
        throw new AccountingError('parameter_invalid', {
          param: 'fiscal_year_id',
          hint: `No fiscal year with id '${input.fiscal_year_id}'.`,
        });
      }
      return toPeriod(await this.insertPeriod(input));
    });
  }

  async listPeriods(query: ListQueryDto & { status?: string; fiscal_year_id?: string }, url: string) {
    const page = await this.periods.page(query, { url }, (qb) => {
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
      if (query.fiscal_year_id) qb.andWhere('r.fiscal_year_id = :fy', { fy: query.fiscal_year_id });
    });
    return listEnvelope(page.rows.map(toPeriod), page, url);
  }

  async retrievePeriod(id: string) {
    return toPeriod(await this.periods.getById(id));
  }

  private async closePeriodRecord(period: AccountingPeriodRecord) {
    const open = await this.entries
      .scopedQuery('e')
      .select('e.status', 'status')
      .addSelect('count(*)::int', 'n')
      .andWhere('e.period_id = :id AND e.status IN (:...statuses)', {
        id: period.id,
        statuses: ['draft', 'pending_approval'],
      })
      .groupBy('e.status')
      .getRawMany<{ status: string; n: number }>();
    if (open.length > 0) {
      throw new AccountingError('invalid_state', {
        hint: `Accounting period ${period.name} holds ${open.map((o) => `${o.n} ${o.status}`).join(' and ')} journal entries; post, approve, reject or void them first.`,
        details: { status: period.status },
      });
    }
    period.status = 'closed';
    period.closedAt = new Date();
    const resource = toPeriod(await this.periods.save(period));
    await this.events.publish('accounting.period.closed', resource, { status: 'open', closed_at: null });
    return resource;
  }

  /** Refused while the period holds drafts or entries pending approval. */
  async closePeriod(id: string) {
    return this.tx.run(async () => {
      const period = await this.periods.getForUpdate(id);
      if (period.status !== 'open') throw invalidState('accounting period', period.status, 'close', ['open']);
      return this.closePeriodRecord(period);
    });
  }

  async reopenPeriod(id: string) {
    return this.tx.run(async () => {
      const period = await this.periods.getForUpdate(id);
      if (period.status !== 'closed')
        throw invalidState('accounting period', period.status, 'reopen', ['closed']);
      if (period.fiscalYearId) {
        const year = await this.years.findById(period.fiscalYearId);
        if (year?.status === 'closed') {
          throw new AccountingError('invalid_state', {
            hint: `Fiscal year ${year.name} is closed; reopen it first.`,
            details: { status: 'closed' },
          });
        }
      }
      const closedAt = period.closedAt?.toISOString() ?? null;
      period.status = 'open';
      period.closedAt = null;
      const resource = toPeriod(await this.periods.save(period));
      await this.events.publish('accounting.period.reopened', resource, {
        status: 'closed',
        closed_at: closedAt,
      });
      return resource;
    });
  }

  /** Ledger account ids by control role (used by the seed and by other contexts' setup). */
  async accountsByRole(): Promise<Map<string, LedgerAccountRecord>> {
    const rows = await this.accounts.scopedQuery('a').andWhere('a.control_role IS NOT NULL').getMany();
    return new Map(rows.map((a) => [a.controlRole as string, a]));
  }
}
