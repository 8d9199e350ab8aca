import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountingSeed } from './application/accounting-seed';
import { AccountingPeriodsService } from './application/accounting-periods.service';
import { AccountingSettingsService } from './application/accounting-settings.service';
import { BankTransactionsService } from './application/bank-transactions.service';
import { FiscalYearsService } from './application/fiscal-years.service';
import { FixedAssetsService } from './application/fixed-assets.service';
import { InventoryValuationRegistry } from './application/inventory-valuation.port';
import { JournalEngine } from './application/journal-engine.service';
import { JournalEntriesService } from './application/journal-entries.service';
import { LedgerAccountsService } from './application/ledger-accounts.service';
import { LedgerPostingService } from './application/ledger-posting.service';
import { ReceivablesRegistry } from './application/receivables.port';
import { RecurringJournalEntriesService } from './application/recurring-journal-entries.service';
import { SubledgerReconciliationService } from './application/subledger-reconciliation.service';
import { VendorBillsService } from './application/vendor-bills.service';
import { JournalEntriesImporter } from './http/journal-entries.importer';
import { ACCOUNTING_ENTITIES } from './infrastructure/accounting.entities';
import { BankTransactionRepository } from './infrastructure/bank-transaction.repository';
import { FiscalYearRepository } from './infrastructure/fiscal-year.repository';
import { FixedAssetRepository } from './infrastructure/fixed-asset.repository';
import { JournalEntryRepository } from './infrastructure/journal-entry.repository';
import { JournalLineRepository } from './infrastructure/journal-line.repository';
import { LedgerAccountRepository } from './infrastructure/ledger-account.repository';
import { PeriodRepository } from './infrastructure/period.repository';
import { RecurringTemplateRepository } from './infrastructure/recurring-template.repository';
import { VendorBillPaymentRepository } from './infrastructure/vendor-bill-payment.repository';
import { VendorBillRepository } from './infrastructure/vendor-bill.repository';
import { AccountingSettingsRepository } from './infrastructure/accounting-settings.repository';
import { EntryFactsRepository } from './infrastructure/entry-facts.repository';
import { JournalEntryWriter } from './infrastructure/journal-entry.writer';
import { JournalPostingBatches } from './infrastructure/journal-posting-batches';
import { PostingBatches } from './application/posting-batches.port';

/** The repositories and writers: accounting's own, never exported. */
const INFRASTRUCTURE = [
  LedgerAccountRepository,
  FiscalYearRepository,
  PeriodRepository,
  JournalEntryRepository,
  JournalLineRepository,
  EntryFactsRepository,
  RecurringTemplateRepository,
  FixedAssetRepository,
  BankTransactionRepository,
  VendorBillRepository,
  VendorBillPaymentRepository,
  AccountingSettingsRepository,
  JournalEntryWriter,
];

/** The application services: what the HTTP and worker modules and other contexts use. */
const SERVICES = [
  AccountingSettingsService,
  JournalEngine,
  LedgerAccountsService,
  AccountingPeriodsService,
  FiscalYearsService,
  JournalEntriesService,
  LedgerPostingService,
  RecurringJournalEntriesService,
  FixedAssetsService,
  ReceivablesRegistry,
  InventoryValuationRegistry,
  BankTransactionsService,
  VendorBillsService,
  SubledgerReconciliationService,
];

/** Ports accounting offers other contexts, bound to their infrastructure implementations. */
const PORTS = [{ provide: PostingBatches, useClass: JournalPostingBatches }];

/**
 * The accounting context without routes or processors: ledger, periods, journal entries,
 * recurring entries, fixed assets, bank transactions, vendor bills and the subledger
 * reconciliation. The API, the worker app and other contexts (through LedgerPostingService,
 * AccountingSettingsService, PostingBatches and the ports) build on it. It registers accounting's QA seed steps
 * and the journal-entry importer, so both come before those of the contexts that build on it
 * (their seeds post to its ledger) and bulk imports run wherever it is loaded.
 */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTING_ENTITIES)],
  providers: [...INFRASTRUCTURE, ...SERVICES, ...PORTS, AccountingSeed, JournalEntriesImporter],
  exports: [...SERVICES, PostingBatches],
})
export class AccountingCoreModule {}
