import { Injectable, OnModuleInit } from '@nestjs/common';
import { ImportRegistry, validateAs } from '#platform/imports/import-registry';
import { JournalEntriesService } from '../application/journal-entries.service';
import { CreateJournalEntryDto } from './journal-entry.dto';

/**
 * Bulk import of journal entries (`resource: "journal_entries"`): each record is validated as
 * POST /journal_entries (CreateJournalEntryDto) and written through JournalEntriesService, one
 * entry at a time (balance, open period, postable accounts, gapless number, approval rule and
 * event as over REST). Posted entries are immutable: see JournalEntriesService.importEntry.
 */
@Injectable()
export class JournalEntriesImporter implements OnModuleInit {
  constructor(
    private readonly registry: ImportRegistry,
    private readonly entries: JournalEntriesService,
  ) {}

  onModuleInit(): void {
    this.registry.register<CreateJournalEntryDto>({
      resource: 'journal_entries',
      validate: (record) => validateAs(CreateJournalEntryDto, record),
      upsert: (input, existingId) => this.entries.importEntry(input, existingId),
    });
  }
}
