import { PlatformError } from '../errors/domain-error';
import { ONE_CURSOR } from '../http/cross-field-rules';

/** The cursor parameters of a list page (the HTTP lists' ListQueryDto carries them). */
export interface PageQuery {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  include_count?: boolean;
}

export const DEFAULT_LIMIT = 20;

export interface PageOptions {
  /** The list's path without query, e.g. `/v1/tags`. */
  url: string;
  /** Keyset column; an id-ordered UUIDv7 column, so a deleted cursor still has a position. */
  keyColumn?: string;
  /** `desc` (default) lists newest first. */
  direction?: 'asc' | 'desc';
}

/** A page is asked for from one side only (the ONE_CURSOR rule the description states). */
export function assertOneCursor(query: PageQuery): void {
  if (query.starting_after && query.ending_before) {
    throw new PlatformError('parameter_invalid', {
      param: ONE_CURSOR.param,
      hint: ONE_CURSOR.sentence,
    }).asPreHandler();
  }
}

/** What one page reads: the rows past the cursor (if any), in `order`, at most `take` of them. */
export interface KeysetWindow {
  cursor?: { op: '<' | '>'; value: string };
  order: 'ASC' | 'DESC';
  take: number;
}

/**
 * Keyset pagination over a UUIDv7 id: the one algorithm of every list, whatever runs the
 * statement. The cursor is compared by value, never looked up, so a cursor whose record was
 * deleted in the meantime still marks the same position and paging neither skips nor repeats a
 * record that existed throughout. `read` runs the window's statement; `count` (asked for with
 * `include_count`) counts the whole list.
 */
export async function readPage<E>(
  query: PageQuery,
  options: PageOptions,
  read: (window: KeysetWindow) => Promise<E[]>,
  count?: () => Promise<number>,
): Promise<{ rows: E[]; has_more: boolean; total_count?: number }> {
  assertOneCursor(query);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const desc = (options.direction ?? 'desc') === 'desc';
  const countPromise = query.include_count && count ? count() : undefined;
  const backwards = Boolean(query.ending_before);
  let cursor: KeysetWindow['cursor'];
  if (query.starting_after) cursor = { op: desc ? '<' : '>', value: query.starting_after };
  else if (query.ending_before) cursor = { op: desc ? '>' : '<', value: query.ending_before };
  const ascending = desc === backwards;
  const rows = await read({ cursor, order: ascending ? 'ASC' : 'DESC', take: limit + 1 });
  const has_more = rows.length > limit;
  if (has_more) rows.length = limit;
  if (backwards) rows.reverse();
  const total_count = countPromise ? await countPromise : undefined;
  return { rows, has_more, total_count };
}
