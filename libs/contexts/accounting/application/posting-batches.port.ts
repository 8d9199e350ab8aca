import type { RequestState } from '#platform/tenancy/request-context';
import type { PostingRequest } from './posting-request';

/** One posting of a batch, with the request it is posted for (its key is the entry's creator). */
export interface BatchedPosting {
  request: PostingRequest;
  /** The request's context; the current one when undefined. */
  state?: RequestState;
}

/** Postings checked and built by buildPostings(), not yet written. */
export interface BuiltPostings {
  /** The id each posting's entry will have, in the order they were given. */
  readonly entryIds: readonly string[];
}

/**
 * Port owned by accounting for postings of new sources written together in the caller's open
 * transaction (inventory's group commit of stock movements): buildPostings() reads what all of
 * them need with one query per entry date and checks and builds each one for its own request;
 * writeBuiltPostings() writes them with one statement, numbered at once in order. From that
 * statement the entity's counter row stays locked until the transaction commits, so the caller
 * writes them last. Outside such a batch, a context posts with LedgerPostingService.post().
 */
export abstract class PostingBatches {
  /** Checks and builds `postings`; throws the first refusal (422 account_not_postable, period_closed...). */
  abstract buildPostings(postings: readonly BatchedPosting[]): Promise<BuiltPostings>;

  /** Writes built postings (422 period_closed when their period closed since they were built). */
  abstract writeBuiltPostings(built: BuiltPostings): Promise<void>;
}
