import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { JournalEntryRecord } from '../infrastructure/accounting.entities';
import { JournalEntryRepository } from '../infrastructure/journal-entry.repository';
import { JournalEngine } from './journal-engine.service';
import { JournalEntryResource, toJournalEntry } from './journal-entry.presenter';
import { postingEntry, PostingRequest } from './posting-request';

export { signedLine } from './posting-request';
export type { PostingLine, PostingRequest } from './posting-request';

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
