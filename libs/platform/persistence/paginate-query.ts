import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PageOptions, PageQuery, readPage } from '../pagination/keyset-page';

/** readPage() over a query builder, keyed on `options.keyColumn` (default: the alias's id). */
export function paginate<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  query: PageQuery,
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
