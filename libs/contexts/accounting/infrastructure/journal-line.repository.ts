import { Injectable } from '@nestjs/common';
import { DeepPartial } from 'typeorm';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { JournalLineRecord } from './accounting.entities';

/** The lines of journal entries, written with their entry and never changed once it is posted. */
@Injectable()
export class JournalLineRepository extends TenantRepository.of(JournalLineRecord, 'journal line') {
  /** A record with these values, not yet written. */
  build(values: DeepPartial<JournalLineRecord>): JournalLineRecord {
    return this.repo.create(values);
  }

  /** The lines of an entry, in line-number order. */
  ofEntry(entryId: string): Promise<JournalLineRecord[]> {
    return this.repo.find({ where: { journalEntryId: entryId }, order: { lineNumber: 'ASC' } });
  }

  /** Deletes every line of an entry in the caller's transaction (a draft's lines being replaced). */
  async deleteOfEntry(entryId: string): Promise<void> {
    await this.tx.transactional.getRepository(JournalLineRecord).delete({ journalEntryId: entryId });
  }

  /** Inserts built lines in the caller's transaction. */
  async insertAll(lines: JournalLineRecord[]): Promise<void> {
    await this.tx.transactional.getRepository(JournalLineRecord).insert(lines);
  }
}
