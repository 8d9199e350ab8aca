import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { QaSeedService } from '#platform/seed/qa-seed.service';
import { AccountType } from '../domain/ledger';
import { AccountingSettingsService } from './accounting-settings.service';
import { AccountingPeriodsService } from './accounting-periods.service';
import { FiscalYearsService } from './fiscal-years.service';
import { LedgerAccountsService } from './ledger-accounts.service';
import { RecurringJournalEntriesService } from './recurring-journal-entries.service';
import { FixedAssetsService } from './fixed-assets.service';
import { addMonths } from '../domain/calendar';
import { money, toJsonNumber } from '#platform/domain/money';
import { BankTransactionsService } from './bank-transactions.service';
import { ReceivablesRegistry } from './receivables.port';

interface SeedAccount {
  key: string;
  code: string;
  name: string;
  type: AccountType;
  role?: string;
  normal?: 'debit' | 'credit';
  header?: boolean;
  bank?: boolean;
}

/** The QA chart of accounts; `key` names the fixture entry. */
export const QA_CHART: SeedAccount[] = [
  { key: 'assets', code: '1', name: 'Assets', type: 'asset', header: true },
  { key: 'cash', code: '1000', name: 'Cash', type: 'asset', role: 'cash', bank: true },
  { key: 'receivables', code: '1100', name: 'Accounts receivable', type: 'asset', role: 'receivables' },
  {
    key: 'unbilled_receivables',
    code: '1150',
    name: 'Unbilled receivables',
    type: 'asset',
    role: 'unbilled_receivables',
  },
  {
    key: 'channel_clearing',
    code: '1160',
    name: 'Sales channel clearing',
    type: 'asset',
    role: 'channel_clearing',
  },
  { key: 'inventory', code: '1200', name: 'Inventory', type: 'asset', role: 'inventory' },
  { key: 'equipment', code: '1500', name: 'Equipment', type: 'asset' },
  {
    key: 'accumulated_depreciation',
    code: '1510',
    name: 'Accumulated depreciation and impairment',
    type: 'asset',
    normal: 'credit',
  },
  { key: 'payables', code: '2000', name: 'Accounts payable', type: 'liability', role: 'payables' },
  { key: 'tax', code: '2100', name: 'Sales tax payable', type: 'liability', role: 'tax' },
  {
    key: 'customer_credit',
    code: '2200',
    name: 'Customer credits',
    type: 'liability',
    role: 'customer_credit',
  },
  {
    key: 'received_not_billed',
    code: '2050',
    name: 'Goods received not billed',
    type: 'liability',
    role: 'received_not_billed',
  },
  { key: 'suspense', code: '2900', name: 'Suspense', type: 'liability', role: 'suspense' },
  { key: 'equity', code: '3000', name: 'Owner equity', type: 'equity' },
  { key: 'revenue', code: '4000', name: 'Sales revenue', type: 'revenue', role: 'revenue' },
  { key: 'cogs', code: '5000', name: 'Cost of goods sold', type: 'expense', role: 'cogs' },
  { key: 'expense', code: '6000', name: 'Operating expenses', type: 'expense' },
  {
    key: 'inventory_adjustment',
    code: '5100',
    name: 'Inventory adjustments (shrinkage and gains)',
    type: 'expense',
    role: 'inventory_adjustment',
  },
  { key: 'depreciation_expense', code: '6100', name: 'Depreciation and impairment expense', type: 'expense' },
];

/** Hooks that later parts of the context add to the accounting seed (recurring templates, assets). */
export type AccountingSeedStep = (ctx: {
  accounts: Record<string, string>;
  today: string;
}) => Promise<Record<string, unknown>>;

/** QA fixtures of accounting (docs/reference/qa-seed.md): ledger_accounts, open_period, closed_period and the steps registered below. */
@Injectable()
export class AccountingSeed implements OnModuleInit, OnApplicationBootstrap {
  private readonly steps: AccountingSeedStep[] = [];

  constructor(
    private readonly qaSeed: QaSeedService,
    private readonly accounts: LedgerAccountsService,
    private readonly years: FiscalYearsService,
    private readonly periods: AccountingPeriodsService,
    private readonly settings: AccountingSettingsService,
    private readonly recurring: RecurringJournalEntriesService,
    private readonly assets: FixedAssetsService,
    private readonly receivables: ReceivablesRegistry,
    private readonly bank: BankTransactionsService,
  ) {}

  addStep(step: AccountingSeedStep): void {
    this.steps.push(step);
  }

  onModuleInit(): void {
    this.qaSeed.register({
      name: 'accounting',
      seed: async ({ as }) => {
        await as('test', () => this.seedBooks());
        return as('live', async () => {
          const { accounts, openPeriod, closedPeriod, today } = await this.seedBooks();
          const fixtures: Record<string, unknown> = {
            ledger_accounts: Object.fromEntries(
              ['cash', 'receivables', 'revenue', 'inventory', 'cogs', 'expense', 'payables'].map((k) => [
                k,
                accounts[k],
              ]),
            ),
            open_period: openPeriod,
            closed_period: closedPeriod,
          };
          const rent = await this.recurring.create({
            name: 'Monthly office rent',
            description: 'Office rent',
            frequency: 'monthly',
            next_run_date: addMonths(`${today.slice(0, 7)}-01`, 1),
            lines: [
              { account_id: accounts.expense, debit_amount: 1500 },
              { account_id: accounts.cash, credit_amount: 1500 },
            ],
          });
          fixtures.recurring_journal_entry_id = rent.id;
          const van = await this.assets.create({
            name: 'Delivery van',
            cost: 36000,
            acquisition_date: `${today.slice(0, 4)}-01-01`,
            useful_life_months: 60,
            salvage_value: 6000,
            asset_account_id: accounts.equipment,
            depreciation_account_id: accounts.accumulated_depreciation,
            expense_account_id: accounts.depreciation_expense,
          });
          await this.assets.impair(van.id, {
            amount: 2500,
            fair_value: 31000,
            reason: 'Collision damage',
            event_date: today,
          });
          await this.assets.recover(van.id, { amount: 1000, reason: 'Repair assessed', event_date: today });
          fixtures.fixed_asset_id = van.id;
          for (const step of this.steps) Object.assign(fixtures, await step({ accounts, today }));
          return fixtures;
        });
      },
    });
  }

  /**
   * The `bank_deposit` fixture: an unmatched deposit into the cash account of exactly the amount due of up to two
   * open invoices of one customer account, read from the receivables port. Registered after every module has
   * started, so it runs after the contributor that creates the invoices; without a port that can list open
   * invoices, or without an open invoice, the fixture is left out.
   */
  onApplicationBootstrap(): void {
    this.qaSeed.register({
      name: 'accounting.bank_deposit',
      seed: ({ as }) =>
        as('live', async () => {
          const port = this.receivables.registered ? this.receivables.port : null;
          if (!port?.listOpenInvoices) return {};
          const open = await port.listOpenInvoices(20);
          if (open.length === 0) return {};
          const accountId = open[0].accountId;
          const invoices = open
            .filter((i) => i.accountId === accountId && i.currency === open[0].currency)
            .slice(0, 2);
          const amount = invoices.reduce((sum, i) => sum.plus(i.amountDue), money(0));
          const cash = await this.accounts.list({ limit: 1, control_role: 'cash' }, '');
          const today = await this.settings.currentBusinessDay();
          const [deposit] = await this.bank.import(
            [
              {
                bank_account_id: cash.data[0].id,
                type: 'deposit',
                amount: amount.toNumber(),
                currency: open[0].currency,
                transaction_date: today,
                description: 'Customer deposit awaiting matching',
                reference: 'QA-DEPOSIT-1',
              },
            ],
            () => '',
          );
          return {
            bank_deposit: {
              id: deposit.id,
              account_id: accountId,
              amount: deposit.amount,
              invoices: invoices.map((i) => ({ id: i.invoiceId, amount_due: toJsonNumber(i.amountDue) })),
            },
          };
        }),
    });
  }

  /** Chart of accounts and three fiscal years of monthly periods; January of last year is closed. */
  private async seedBooks() {
    const accounts: Record<string, string> = {};
    for (const a of QA_CHART) {
      const created = await this.accounts.create({
        code: a.code,
        name: a.name,
        type: a.type,
        normal_balance: a.normal,
        postable: !a.header,
        parent_id: a.type === 'asset' && !a.header ? accounts.assets : null,
        control_role: a.role ?? null,
        is_bank: a.bank ?? false,
      });
      accounts[a.key] = created.id;
    }
    const today = await this.settings.currentBusinessDay();
    const year = Number(today.slice(0, 4));
    for (const y of [year - 1, year, year + 1]) {
      await this.years.create({
        name: `FY${y}`,
        start_date: `${y}-01-01`,
        end_date: `${y}-12-31`,
        monthly_periods: true,
      });
    }
    const periods = await this.periods.list({ limit: 100 }, '');
    const find = (date: string) => periods.data.find((p) => p.start_date <= date && p.end_date >= date);
    const closed = await this.periods.close(find(`${year - 1}-01-15`)!.id);
    const open = find(today)!;
    return {
      accounts,
      today,
      openPeriod: { id: open.id, start_date: open.start_date, end_date: open.end_date },
      closedPeriod: { id: closed.id, start_date: closed.start_date, end_date: closed.end_date },
    };
  }
}
