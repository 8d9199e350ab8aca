import { Injectable } from '@nestjs/common';
import { RequestContext } from '#platform/tenancy/request-context';
import { JournalEngine, NewEntry, PreparedEntry } from '../application/journal-engine.service';
import { BatchedPosting, BuiltPostings, PostingBatches } from '../application/posting-batches.port';
import { postingEntry } from '../application/posting-request';

/** What JournalPostingBatches built: the entries, in the order of their postings. */
interface BuiltEntries extends BuiltPostings {
  readonly entries: readonly PreparedEntry[];
}

/**
 * PostingBatches on the journal engine: one facts query per entry date of the batch (accounts by
 * id and by control role, the period share-locked until commit, the approval threshold), each
 * entry checked and built in its own request's context, then one statement writing every entry,
 * its lines and its event, numbered in order from the entity's counter row.
 */
@Injectable()
export class JournalPostingBatches extends PostingBatches {
  constructor(private readonly engine: JournalEngine) {
    super();
  }

  async buildPostings(postings: readonly BatchedPosting[]): Promise<BuiltEntries> {
    const inputs = postings.map((p) => {
      if (!p.request.new_source) throw new Error('Only postings of new sources are written in batches');
      return postingEntry(p.request);
    });
    const byDate = new Map<string, NewEntry[]>();
    for (const input of inputs) byDate.set(input.entryDate, [...(byDate.get(input.entryDate) ?? []), input]);
    const facts = new Map<string, Awaited<ReturnType<JournalEngine['factsFor']>>>();
    for (const [date, sameDay] of byDate) facts.set(date, await this.engine.factsFor(sameDay));
    const entries = inputs.map((input, i) => {
      const build = () => this.engine.build(input, facts.get(input.entryDate)!);
      const state = postings[i].state;
      return state ? RequestContext.run(state, build) : build();
    });
    return { entries, entryIds: entries.map((e) => e.entry.id) };
  }

  writeBuiltPostings(built: BuiltPostings): Promise<void> {
    return this.engine.writePrepared((built as BuiltEntries).entries);
  }
}
