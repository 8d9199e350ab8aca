import { PlatformFoundation1763700000000 } from './1763700000000-platform-foundation';
import { CatalogProducts1763800000000 } from './1763800000000-catalog-products';
import { SalesAccountsAndReferenceLists1763850000000 } from './1763850000000-sales-accounts-and-reference-lists';
import { Accounting1763900000000 } from './1763900000000-accounting';
import { Webhooks1764000000000 } from './1764000000000-webhooks';
import { MigrationContext1764100000000 } from './1764100000000-migration-context';
import { SalesOrdersAndPayments1764200000000 } from './1764200000000-sales-orders-and-payments';
import { BankTransactionsAndVendorBills1764300000000 } from './1764300000000-bank-transactions-and-vendor-bills';
import { JournalNumbersAtCommit1764600000000 } from './1764600000000-journal-numbers-at-commit';
import { JournalNumberFunction1764700000000 } from './1764700000000-journal-number-function';
import { Inventory1765000000000 } from './1765000000000-inventory';
import { Fulfillment1765100000000 } from './1765100000000-fulfillment';
import { Replenishment1765200000000 } from './1765200000000-replenishment';
import { ImportUploadChunks1765300000000 } from './1765300000000-import-upload-chunks';
import { EncryptWebhookSecrets1765310000000 } from './1765310000000-encrypt-webhook-secrets';
import { PostingNumbersAtCommit1765420000000 } from './1765420000000-posting-numbers-at-commit';
import { IdempotentReplayText1765430000000 } from './1765430000000-idempotent-replay-text';
import { QueuedNotificationsIndex1765440000000 } from './1765440000000-queued-notifications-index';
import { InventoryStockFactsNotify1765457000000 } from './1765457000000-inventory-stock-facts-notify';
import { ProductsDemandUpdateKeepsStockFacts1765460000000 } from './1765460000000-products-demand-update-keeps-stock-facts';
import { EntityProfilesNotify1765470000000 } from './1765470000000-entity-profiles-notify';
import { InventorySettingsStockFactsNotify1765480000000 } from './1765480000000-inventory-settings-stock-facts-notify';
import { PackageLineUnits1765490000000 } from './1765490000000-package-line-units';
import { JournalEntriesWritten1765500000000 } from './1765500000000-journal-entries-written';
import { LabelDrawing1765510000000 } from './1765510000000-label-drawing';
import { DemandRefreshMarks1765520000000 } from './1765520000000-demand-refresh-marks';
import { Integrations1765600000000 } from './1765600000000-integrations';
import { ReturnAuthorizations1765610000000 } from './1765610000000-return-authorizations';
import { Collections1765620000000 } from './1765620000000-collections';
import { RecurringAnchorDay1765630000000 } from './1765630000000-recurring-anchor-day';
import { ApiKeyChecksumSecret1765631000000 } from './1765631000000-api-key-checksum-secret';
import { ImportRows1765640000000 } from './1765640000000-import-rows';
import { OrderLineRevenue1765650000000 } from './1765650000000-order-line-revenue';
import { IdempotentResponseSecrets1765651000000 } from './1765651000000-idempotent-response-secrets';
import { CustomerCreditBalance1765653100000 } from './1765653100000-customer-credit-balance';
import { PendingRefunds1765660000000 } from './1765660000000-pending-refunds';

/** The single timeline of schema migrations, in order. */
export const MIGRATIONS = [
  PlatformFoundation1763700000000,
  CatalogProducts1763800000000,
  SalesAccountsAndReferenceLists1763850000000,
  Accounting1763900000000,
  Webhooks1764000000000,
  MigrationContext1764100000000,
  SalesOrdersAndPayments1764200000000,
  BankTransactionsAndVendorBills1764300000000,
  JournalNumbersAtCommit1764600000000,
  JournalNumberFunction1764700000000,
  Inventory1765000000000,
  Fulfillment1765100000000,
  Replenishment1765200000000,
  ImportUploadChunks1765300000000,
  EncryptWebhookSecrets1765310000000,
  PostingNumbersAtCommit1765420000000,
  IdempotentReplayText1765430000000,
  QueuedNotificationsIndex1765440000000,
  InventoryStockFactsNotify1765457000000,
  ProductsDemandUpdateKeepsStockFacts1765460000000,
  EntityProfilesNotify1765470000000,
  InventorySettingsStockFactsNotify1765480000000,
  PackageLineUnits1765490000000,
  JournalEntriesWritten1765500000000,
  LabelDrawing1765510000000,
  DemandRefreshMarks1765520000000,
  Integrations1765600000000,
  ReturnAuthorizations1765610000000,
  Collections1765620000000,
  RecurringAnchorDay1765630000000,
  ApiKeyChecksumSecret1765631000000,
  ImportRows1765640000000,
  OrderLineRevenue1765650000000,
  IdempotentResponseSecrets1765651000000,
  CustomerCreditBalance1765653100000,
  PendingRefunds1765660000000,
];
