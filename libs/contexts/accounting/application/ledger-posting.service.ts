import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ControlRole } from '../domain/ledger';
import { SourceType } from '../domain/source-types';
import { JournalEntryRecord } from '../infrastructure/accounting.entities';
import { JournalEntryRepository } from '../infrastructure/journal-entry.repository';
import { JournalEngine } from './journal-engine.service';
import { JournalEntryResource, toJournalEntry } from './journal-entry.presenter';
import { postingEntry } from './posting-entry';

/** A posting line: the account by id or by the entity's control-account role. */
export type PostingLine = (
  { role: ControlRole; account_id?: never } | { account_id: string; role?: never }
) & {
  debit?: Decimal.Value;
  credit?: Decimal.Value;
  description?: string;
  location_id?: string;
  department_id?: string;
  class_id?: string;
  project_id?: string;
};

/**
 * A line for a signed amount: a debit when positive, a credit of its absolute value when
 * negative, none when zero (an amount that may flip side, such as a reversal under a rule).
 */
export function signedLine(
  target: { role: ControlRole } | { account_id: string },
  debitAmount: Decimal,
  description: string,
): PostingLine[] {
  if (debitAmount.isZero()) return [];
  const side = debitAmount.gt(0) ? { debit: debitAmount } : { credit: debitAmount.negated() };
  return [{ ...target, ...side, description } as PostingLine];
}

export interface PostingRequest {
  source_type: SourceType;
  source_id: string;
  source_module: string;
  entry_date: string;
  description: string;
  lines: PostingLine[];
  batch_id?: string;
  entry_type?: string;
  /**
   * The source document is created in the caller's transaction with a new id, so no entry can
   * exist for it yet: the duplicate-source check and its lock are skipped.
   */
  new_source?: boolean;
}

/**
 * The ledger's door for other contexts: posts a system entry inside the caller's open
 * transaction (or its own). Posting the same (source_type, source_id) again returns the first entry.
 * Inside a caller's transaction the entry takes its number from the entity's counter row when it
 * is written, and that row stays locked until the caller commits: a caller posts once its other
 * checks are done.
 */
@Injectable()
export class LedgerPostingService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly engine: JournalEngine,
    private readonly entries: JournalEntryRepository,
  ) {}

  async post(request: PostingRequest): Promise<JournalEntryResource> {
    return this.tx.run(async () => {
      if (!request.new_source) {
        const existing = await this.bySource(request.source_type, request.source_id);
        if (existing) return this.engine.present(existing);
      }
      if (!request.new_source) {
        await this.entries.lockSource(request.source_type, request.source_id);
        const raced = await this.bySource(request.source_type, request.source_id);
        if (raced) return this.engine.present(raced);
      }
      const { entry, lines: stored } = await this.engine.create(postingEntry(request));
      return toJournalEntry(entry, stored);
    });
  }

  private bySource(sourceType: string, sourceId: string): Promise<JournalEntryRecord | null> {
    return this.entries.bySource(sourceType, sourceId);
  }
}
