import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import {
  AccountingPeriodRecord,
  BankTransactionRecord,
  FiscalYearRecord,
  VendorBillPaymentRecord,
  VendorBillRecord,
  FixedAssetRecord,
  JournalEntryRecord,
  LedgerAccountRecord,
  RecurringJournalEntryRecord,
} from './accounting.entities';

@Injectable()
export class LedgerAccountRepository extends TenantRepository<LedgerAccountRecord> {
  constructor(tx: TransactionHost) {
    super(tx, LedgerAccountRecord, 'ledger account');
  }
}

@Injectable()
export class FiscalYearRepository extends TenantRepository<FiscalYearRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FiscalYearRecord, 'fiscal year');
  }
}

@Injectable()
export class PeriodRepository extends TenantRepository<AccountingPeriodRecord> {
  constructor(tx: TransactionHost) {
    super(tx, AccountingPeriodRecord, 'accounting period');
  }

  /** The period whose dates cover `date`, if any. */
  covering(date: string): Promise<AccountingPeriodRecord | null> {
    return this.scopedQuery('p')
      .andWhere('p.start_date <= :date AND p.end_date >= :date', { date })
      .orderBy('p.start_date', 'DESC')
      .getOne();
  }

  overlapping(start: string, end: string): Promise<AccountingPeriodRecord | null> {
    return this.scopedQuery('p')
      .andWhere('p.start_date <= :end AND p.end_date >= :start', { start, end })
      .getOne();
  }
}

@Injectable()
export class JournalEntryRepository extends TenantRepository<JournalEntryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, JournalEntryRecord, 'journal entry');
  }
}

@Injectable()
export class RecurringTemplateRepository extends TenantRepository<RecurringJournalEntryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, RecurringJournalEntryRecord, 'recurring journal entry');
  }
}

@Injectable()
export class FixedAssetRepository extends TenantRepository<FixedAssetRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FixedAssetRecord, 'fixed asset');
  }
}

@Injectable()
export class BankTransactionRepository extends TenantRepository<BankTransactionRecord> {
  constructor(tx: TransactionHost) {
    super(tx, BankTransactionRecord, 'bank transaction');
  }
}

@Injectable()
export class VendorBillRepository extends TenantRepository<VendorBillRecord> {
  constructor(tx: TransactionHost) {
    super(tx, VendorBillRecord, 'vendor bill');
  }
}

@Injectable()
export class VendorBillPaymentRepository extends TenantRepository<VendorBillPaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, VendorBillPaymentRecord, 'vendor bill payment');
  }
}
