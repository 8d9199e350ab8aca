import { Injectable } from '@nestjs/common';
import { BodyImporter, outcomes } from '#platform/imports/import-registry';
import { JournalEntriesService } from '../application/journal-entries.service';
import { CreateJournalEntryDto } from './journal-entry.dto';

/**
 * Bulk import of journal entries (`resource: "journal_entries"`): each record is validated as
 * POST /journal_entries (CreateJournalEntryDto) and written through JournalEntriesService with
 * the rules of REST (balance, open period, postable accounts, gapless number, approval rule and
 * event): a batch's new entries together (createMany: one facts query, one writing statement),
 * known ones one at a time. Posted entries are immutable: see JournalEntriesService.importEntry.
 */
@Injectable()
export class JournalEntriesImporter extends BodyImporter<CreateJournalEntryDto> {
  constructor(private readonly entries: JournalEntriesService) {
    super('journal_entries', CreateJournalEntryDto);
  }

  upsert(input: CreateJournalEntryDto, existingId: string | null) {
    return this.entries.importEntry(input, existingId);
  }

  async createMany(inputs: CreateJournalEntryDto[]) {
    return outcomes(await this.entries.createMany(inputs));
  }
}
