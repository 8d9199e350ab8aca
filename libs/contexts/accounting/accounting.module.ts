import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingSeed } from './application/accounting-seed';
import { AccountingSettingsService } from './application/accounting-settings.service';
import { AccountingSettingsRepository } from './infrastructure/accounting-settings.repository';
import { JournalEngine } from './application/journal-engine.service';
import { JournalEntriesService } from './application/journal-entries.service';
import { LedgerPostingService } from './application/ledger-posting.service';
import { AccountingPeriodsService } from './application/accounting-periods.service';
import { FiscalYearsService } from './application/fiscal-years.service';
import { LedgerAccountsService } from './application/ledger-accounts.service';
import { InventoryValuationGateway } from './application/inventory-valuation.port';
import { ReceivablesGateway } from './application/receivables.port';
import { RecurringJournalEntriesService } from './application/recurring-journal-entries.service';
import { RecurringJournalEntriesController } from './http/recurring-journal-entries.controller';
import { AccountingProcessor, AccountingScheduler } from './infrastructure/recurring-entries.processor';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { FixedAssetsService } from './application/fixed-assets.service';
import { FixedAssetsController } from './http/fixed-assets.controller';
import { JournalEntriesController } from './http/journal-entries.controller';
import { JournalEntriesImporter } from './http/journal-entries.importer';
import {
  AccountingSettingsController,
  FiscalYearsController,
  LedgerAccountsController,
  PeriodsController,
} from './http/ledger.controller';
import { ACCOUNTING_ENTITIES } from './infrastructure/accounting.entities';
import { JournalEntryWriter } from './infrastructure/journal-entry.writer';
import { BankTransactionsService } from './application/bank-transactions.service';
import { SubledgerReconciliationService } from './application/subledger-reconciliation.service';
import { VendorBillsService } from './application/vendor-bills.service';
import {
  BankTransactionsController,
  ReportsController,
  VendorBillsController,
} from './http/payables.controller';
import {
  BankTransactionRepository,
  FiscalYearRepository,
  FixedAssetRepository,
  VendorBillPaymentRepository,
  VendorBillRepository,
  JournalEntryRepository,
  LedgerAccountRepository,
  PeriodRepository,
  RecurringTemplateRepository,
} from './infrastructure/accounting.repositories';

const PROVIDERS = [
  LedgerAccountRepository,
  FiscalYearRepository,
  PeriodRepository,
  JournalEntryRepository,
  RecurringTemplateRepository,
  FixedAssetRepository,
  AccountingSettingsService,
  AccountingSettingsRepository,
  JournalEngine,
  JournalEntryWriter,
  LedgerAccountsService,
  AccountingPeriodsService,
  FiscalYearsService,
  JournalEntriesService,
  LedgerPostingService,
  RecurringJournalEntriesService,
  FixedAssetsService,
  ReceivablesGateway,
  InventoryValuationGateway,
  BankTransactionRepository,
  VendorBillRepository,
  VendorBillPaymentRepository,
  BankTransactionsService,
  VendorBillsService,
  SubledgerReconciliationService,
];

/** Accounting services without routes: the API and the worker app both build on it. */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTING_ENTITIES)],
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class AccountingCoreModule {}

/**
 * Accounting context: ledger, periods, journal entries, recurring entries, fixed assets, bank transactions,
 * vendor bills and the subledger reconciliation. Exports LedgerPostingService and the ReceivablesGateway.
 */
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
  providers: [AccountingSeed, JournalEntriesImporter],
  exports: [AccountingCoreModule],
})
export class AccountingModule {}

/** The worker side (dispatcher app): the `accounting` queue's processor and its repeatable job. */
@Module({
  imports: [AccountingCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.accounting })],
  providers: [AccountingProcessor, AccountingScheduler],
})
export class AccountingWorkerModule {}
