import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { outboxInsertSql, outboxRowJson, type OutboxRow } from '#platform/events/outbox-writer';
import { KeyedBatches } from '#platform/persistence/keyed-batches';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
import { JournalEntryRecord, JournalLineRecord } from './accounting.entities';
import { journalEntryFields } from './journal-entry-fields';

/** An entry checked and ready to write: its records, its event (placeholder number) and its period. */
export interface EntryToWrite {
  entry: JournalEntryRecord;
  lines: JournalLineRecord[];
  event: OutboxRow;
}

interface Waiting {
  item: EntryToWrite;
  resolve: (entryNumber: string | null) => void;
  reject: (error: unknown) => void;
}

/** At most this many entries go into one statement. */
const MAX_BATCH = 200;

/**
 * Entries, their lines and their events, numbered and written in one statement.
 *
 * The statement share-locks the periods of its entries and skips entries whose period is no
 * longer open (their number is null), takes one number per written entry from the entity's
 * counter row, and puts each number in its entry and its event. The counter row stays locked
 * until the statement's transaction commits, so entries of one entity and mode are committed one
 * transaction after another. Standalone entries (`write`) therefore share transactions: those that
 * arrive while the previous batch of their entity commits wait for that commit and go into the
 * next statement together, the way PostgreSQL groups commits. Every request keeps its own
 * outcome: when a batch fails, its entries are written again one by one.
 */
@Injectable()
export class JournalEntryWriter {
  private readonly batches = new KeyedBatches<Waiting>(MAX_BATCH, (batch) => this.flush(batch));

  constructor(private readonly tx: TransactionHost) {}

  /**
   * Writes one entry in the caller's open transaction; its number is taken at once and the
   * counter row stays locked until that transaction commits.
   */
  async writeInTransaction(item: EntryToWrite): Promise<string | null> {
    return (await this.insert(this.tx.transactional, [item]))[0];
  }

  /**
   * Writes entries of one entity and mode in the caller's open transaction with one statement,
   * numbered at once in their order (the counter row stays locked until that commit): for a caller
   * that groups the requests of several clients in its transaction and writes the entries last.
   */
  async writeManyInTransaction(items: readonly EntryToWrite[]): Promise<(string | null)[]> {
    if (items.length === 0) return [];
    return this.insert(this.tx.transactional, [...items]);
  }

  /** Writes one entry in its own transaction, shared with entries of the same entity written meanwhile. */
  write(item: EntryToWrite): Promise<string | null> {
    const key = `${item.entry.entityId}:${item.entry.livemode}`;
    // Entries submitted in the same turn of the event loop join the first statement.
    return new Promise((resolve, reject) => this.batches.add(key, { item, resolve, reject }));
  }

  private async flush(batch: Waiting[]): Promise<void> {
    try {
      const numbers = await this.insert(
        this.tx.dataSource.manager,
        batch.map((w) => w.item),
      );
      batch.forEach((w, i) => w.resolve(numbers[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One bad entry must not fail the others: each is written again on its own.
      for (const w of batch) {
        try {
          w.resolve((await this.insert(this.tx.dataSource.manager, [w.item]))[0]);
        } catch (single) {
          w.reject(single);
        }
      }
    }
  }

  /** The numbers of `items`, in order (null where the period was not open and nothing was written). */
  private async insert(manager: EntityManager, items: EntryToWrite[]): Promise<(string | null)[]> {
    const { sql, params } = this.statement(items);
    const rows: { id: string; entry_number: string }[] = await manager.query(sql, params);
    const numbers = new Map(rows.map((r) => [r.id, r.entry_number]));
    return items.map((item) => numbers.get(item.entry.id) ?? null);
  }

  /** The statement writing `items`; it answers the written entries' ids and numbers. */
  private statement(items: EntryToWrite[]): WriteStatement {
    const { entityId, livemode } = items[0].entry;
    return {
      sql: `WITH b AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
           seq int, id uuid, created_at timestamptz, period_id uuid, entry_date date, entry_type text, status text,
           approval_status text, description text, source_type text, source_id text, source_module text,
           is_reversing boolean, reversal_of_id uuid, reverse_in_period_id uuid, batch_id uuid, total_debit numeric,
           total_credit numeric, posted_at timestamptz, idempotency_key text, created_by uuid, created_by_name text,
           lines jsonb, event jsonb)),
       open AS (
         SELECT p.id FROM accounting_periods p
         WHERE p.id IN (SELECT period_id FROM b) AND p.entity_id = $2 AND p.livemode = $3 AND p.status = 'open'
         FOR SHARE),
       ok AS (
         SELECT b.*, row_number() OVER (ORDER BY b.seq) AS k, count(*) OVER () AS total
         FROM b WHERE b.period_id IN (SELECT id FROM open)),
       c AS (
         UPDATE accounting_settings SET last_entry_number = last_entry_number + (SELECT count(*) FROM ok)
         WHERE entity_id = $2 AND livemode = $3 AND EXISTS (SELECT 1 FROM ok)
         RETURNING last_entry_number, entry_number_prefix),
       n AS (
         SELECT ok.*, journal_entry_number_text(c.entry_number_prefix, c.last_entry_number - ok.total + ok.k) AS entry_number
         FROM ok CROSS JOIN c),
       e AS (
         INSERT INTO journal_entries (id, entity_id, livemode, created_at, updated_at, version, period_id, entry_number,
           entry_date, entry_type, status, approval_status, description, source_type, source_id, source_module, is_reversing,
           reversal_of_id, reverse_in_period_id, batch_id, total_debit, total_credit, posted_at, idempotency_key, created_by,
           created_by_name)
         SELECT id, $2, $3, created_at, created_at, 1, period_id, entry_number, entry_date, entry_type, status,
           approval_status, description, source_type, source_id, source_module, is_reversing, reversal_of_id,
           reverse_in_period_id, batch_id, total_debit, total_credit, posted_at, idempotency_key, created_by, created_by_name
         FROM n),
       l AS (
         INSERT INTO journal_lines (id, entity_id, livemode, created_at, updated_at, version, journal_entry_id, line_number,
           account_id, debit_amount, credit_amount, description, location_id, department_id, class_id, project_id, reconciled)
         SELECT l.id, $2, $3, n.created_at, n.created_at, 1, n.id, l.line_number, l.account_id, l.debit_amount,
           l.credit_amount, l.description, l.location_id, l.department_id, l.class_id, l.project_id, false
         FROM n CROSS JOIN LATERAL jsonb_to_recordset(n.lines) AS l(id uuid, line_number int, account_id uuid,
           debit_amount numeric, credit_amount numeric, description text, location_id uuid, department_id uuid,
           class_id uuid, project_id uuid)),
       o AS (
         ${outboxInsertSql('n.event', 'n', "jsonb_set(n.event->'data', '{object,entry_number}', to_jsonb(n.entry_number))")})
       SELECT id, entry_number FROM n`,
      params: [JSON.stringify(items.map(toJson)), entityId, livemode],
    };
  }
}

function toJson({ entry: e, lines, event }: EntryToWrite, seq: number) {
  return {
    seq,
    id: e.id,
    created_at: e.createdAt.toISOString(),
    period_id: e.periodId,
    ...journalEntryFields(e),
    reversal_of_id: e.reversalOfId,
    reverse_in_period_id: e.reverseInPeriodId,
    batch_id: e.batchId,
    total_debit: e.totalDebit.toFixed(),
    total_credit: e.totalCredit.toFixed(),
    posted_at: e.postedAt?.toISOString() ?? null,
    idempotency_key: e.idempotencyKey,
    created_by: e.createdBy,
    created_by_name: e.createdByName,
    lines: lines.map((l) => ({
      id: l.id,
      line_number: l.lineNumber,
      account_id: l.accountId,
      debit_amount: l.debitAmount.toFixed(),
      credit_amount: l.creditAmount.toFixed(),
      description: l.description,
      location_id: l.locationId,
      department_id: l.departmentId,
      class_id: l.classId,
      project_id: l.projectId,
    })),
    event: outboxRowJson(event),
  };
}
