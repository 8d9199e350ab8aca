import { Module } from '@nestjs/common';
import { AccountingCoreModule } from './accounting-core.module';
import { FixedAssetsController } from './http/fixed-assets.controller';
import { JournalEntriesController } from './http/journal-entries.controller';
import { PeriodsController } from './http/accounting-periods.controller';
import { AccountingSettingsController } from './http/accounting-settings.controller';
import { BankTransactionsController } from './http/bank-transactions.controller';
import { FiscalYearsController } from './http/fiscal-years.controller';
import { LedgerAccountsController } from './http/ledger-accounts.controller';
import { ReportsController } from './http/reports.controller';
import { VendorBillsController } from './http/vendor-bills.controller';
import { RecurringJournalEntriesController } from './http/recurring-journal-entries.controller';

/** Accounting's routes, served by the API app. */
@Module({
  imports: [AccountingCoreModule],
  controllers: [
    AccountingSettingsController,
    LedgerAccountsController,
    FiscalYearsController,
    PeriodsController,
    JournalEntriesController,
    RecurringJournalEntriesController,
    FixedAssetsController,
    BankTransactionsController,
    VendorBillsController,
    ReportsController,
  ],
})
export class AccountingHttpModule {}
