import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
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

  /** A page of the chart of accounts, filtered by type, control role and postability. */
  pageFiltered(
    query: ListQueryDto & { type?: string; control_role?: string; postable?: boolean },
    url: string,
  ) {
    return this.page(query, { url }, (qb) => {
      if (query.type) qb.andWhere('r.type = :type', { type: query.type });
      if (query.control_role) qb.andWhere('r.control_role = :role', { role: query.control_role });
      if (query.postable !== undefined) qb.andWhere('r.postable = :postable', { postable: query.postable });
    });
  }

  /**
   * The balance of the accounts holding a control role, on their normal side, over posted (and
   * reversed) entries dated on or before `asOf`; null without such an account or entry.
   */
  async controlBalance(role: string, asOf: string): Promise<string | null> {
    const { entityId, livemode } = this.scope();
    const rows: { balance: string | null }[] = await this.tx.manager.query(
      `SELECT CASE WHEN a.normal_balance = 'debit' THEN sum(l.debit_amount - l.credit_amount) ELSE sum(l.credit_amount - l.debit_amount) END AS balance
       FROM ledger_accounts a
       JOIN journal_lines l ON l.account_id = a.id AND l.entity_id = a.entity_id AND l.livemode = a.livemode
       JOIN journal_entries e ON e.id = l.journal_entry_id
       WHERE a.entity_id = $1 AND a.livemode = $2 AND a.control_role = $3
         AND e.status IN ('posted', 'reversed') AND e.entry_date <= $4
       GROUP BY a.normal_balance`,
      [entityId, livemode, role, asOf],
    );
    return rows[0]?.balance ?? null;
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

  /** Serializes period creation per entity and mode (transaction-scoped), so two overlapping periods cannot both pass the check. */
  async lockForCreation(): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `accounting_periods:${entityId}:${livemode}`,
    ]);
  }

  /** The periods of a fiscal year, in date order. */
  ofFiscalYear(fiscalYearId: string): Promise<AccountingPeriodRecord[]> {
    return this.scopedQuery('p')
      .andWhere('p.fiscal_year_id = :id', { id: fiscalYearId })
      .orderBy('p.start_date')
      .getMany();
  }

  /** A page of periods, filtered by status and fiscal year. */
  pageFiltered(query: ListQueryDto & { status?: string; fiscal_year_id?: string }, url: string) {
    return this.page(query, { url }, (qb) => {
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
      if (query.fiscal_year_id) qb.andWhere('r.fiscal_year_id = :fy', { fy: query.fiscal_year_id });
    });
  }
}

@Injectable()
export class JournalEntryRepository extends TenantRepository<JournalEntryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, JournalEntryRecord, 'journal entry');
  }

  /** The entry posted for a source document, if any. */
  bySource(sourceType: string, sourceId: string): Promise<JournalEntryRecord | null> {
    return this.scopedQuery('e')
      .andWhere('e.source_type = :sourceType AND e.source_id = :sourceId', { sourceType, sourceId })
      .getOne();
  }

  /**
   * Serializes postings of one source document until the transaction ends (a transaction-scoped
   * advisory lock on the source, not the entry counter row, so postings of other sources go on).
   */
  async lockSource(sourceType: string, sourceId: string): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `journal_entries.source:${entityId}:${livemode}:${sourceType}:${sourceId}`,
    ]);
  }

  /** How many entries of the period are still drafts or pending approval, by status. */
  unfinishedInPeriod(periodId: string): Promise<{ status: string; n: number }[]> {
    return this.scopedQuery('e')
      .select('e.status', 'status')
      .addSelect('count(*)::int', 'n')
      .andWhere('e.period_id = :id AND e.status IN (:...statuses)', {
        id: periodId,
        statuses: ['draft', 'pending_approval'],
      })
      .groupBy('e.status')
      .getRawMany<{ status: string; n: number }>();
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

  /** Bills dated by `asOf`, less those voided by then, less payments made by then. */
  async openPayablesBalance(asOf: string): Promise<string | null> {
    const { entityId, livemode } = this.scope();
    const rows: { balance: string | null }[] = await this.tx.manager.query(
      `SELECT
         (SELECT coalesce(sum(amount), 0) FROM vendor_bills
            WHERE entity_id = $1 AND livemode = $2 AND bill_date <= $3 AND (voided_on IS NULL OR voided_on > $3))
       - (SELECT coalesce(sum(p.amount), 0) FROM vendor_bill_payments p
            WHERE p.entity_id = $1 AND p.livemode = $2 AND p.payment_date <= $3) AS balance`,
      [entityId, livemode, asOf],
    );
    return rows[0]?.balance ?? null;
  }
}

@Injectable()
export class VendorBillPaymentRepository extends TenantRepository<VendorBillPaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, VendorBillPaymentRecord, 'vendor bill payment');
  }
}
