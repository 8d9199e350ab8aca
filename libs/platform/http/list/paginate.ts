import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PlatformError } from '../../errors/domain-error';
import { ListQueryDto } from './list-query.dto';

export const DEFAULT_LIMIT = 20;

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  total_count?: number;
}

export interface PageOptions {
  /** The list's path without query, e.g. `/v1/tags`. */
  url: string;
  /** Keyset column; an id-ordered UUIDv7 column, so a deleted cursor still has a position. */
  keyColumn?: string;
  /** `desc` (default) lists newest first. */
  direction?: 'asc' | 'desc';
}

/** A page is asked for from one side only. */
export function assertOneCursor(query: ListQueryDto): void {
  if (query.starting_after && query.ending_before) {
    throw new PlatformError('parameter_invalid', {
      param: 'ending_before',
      hint: 'starting_after and ending_before are mutually exclusive.',
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
  query: ListQueryDto,
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

/** readPage() over a query builder, keyed on `options.keyColumn` (default: the alias's id). */
export function paginate<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  query: ListQueryDto,
  options: PageOptions,
): Promise<{ rows: E[]; has_more: boolean; total_count?: number }> {
  const key = options.keyColumn ?? `${qb.alias}.id`;
  return readPage(
    query,
    options,
    (window) => {
      const page = qb.clone();
      if (window.cursor) page.andWhere(`${key} ${window.cursor.op} :cursor`, { cursor: window.cursor.value });
      return page.orderBy(key, window.order).limit(window.take).getMany();
    },
    () => qb.clone().getCount(),
  );
}

export function listEnvelope<T>(
  data: T[],
  page: { has_more: boolean; total_count?: number },
  url: string,
): ListPage<T> {
  const envelope: ListPage<T> = { object: 'list', data, has_more: page.has_more, url };
  if (page.total_count !== undefined) envelope.total_count = page.total_count;
  return envelope;
}
