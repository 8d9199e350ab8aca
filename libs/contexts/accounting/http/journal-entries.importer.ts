import { Injectable } from '@nestjs/common';
import { BodyImporter } from '#platform/imports/import-registry';
import { JournalEntriesService } from '../application/journal-entries.service';
import { CreateJournalEntryDto } from './journal-entry.dto';

/**
 * Bulk import of journal entries (`resource: "journal_entries"`): each record is validated as
 * POST /journal_entries (CreateJournalEntryDto) and written through JournalEntriesService, one
 * entry at a time (balance, open period, postable accounts, gapless number, approval rule and
 * event as over REST). Posted entries are immutable: see JournalEntriesService.importEntry.
 */
@Injectable()
export class JournalEntriesImporter extends BodyImporter<CreateJournalEntryDto> {
  constructor(private readonly entries: JournalEntriesService) {
    super('journal_entries', CreateJournalEntryDto);
  }

  upsert(input: CreateJournalEntryDto, existingId: string | null) {
    return this.entries.importEntry(input, existingId);
  }
}
