export { assertOneCursor, DEFAULT_LIMIT, readPage } from '../../pagination/keyset-page';
export type { KeysetWindow, PageOptions, PageQuery } from '../../pagination/keyset-page';
export { paginate } from '../../persistence/paginate-query';

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  total_count?: number;
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
