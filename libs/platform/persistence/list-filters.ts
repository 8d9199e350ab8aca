import type { PageFilter } from './tenant-repository';

/**
 * The condition a filter parameter of a list puts on the page when the query gives it: SQL on one
 * column as in PageFilter (`'transaction_date >= ?'`, the parameter's value standing for `?`), or
 * that SQL with the value the parameter converts to.
 */
export type ParameterCondition<V> = string | { sql: string; value(given: V): unknown };

/** The filter parameters of a list, as data (listFilters() turns a query into its conditions). */
export interface ListFilters<Q> {
  /** Parameters that keep the rows whose column of the same name holds the parameter's value. */
  equal?: readonly (keyof Q & string)[];
  /** Other parameters, each with its condition. */
  where?: { [K in keyof Q]?: ParameterCondition<Exclude<Q[K], undefined>> };
}

/**
 * `created_after` and `created_before` as every list reads them. Times are shown with
 * milliseconds but stored with microseconds, so "after" a shown time starts at its next
 * millisecond (a record's own created_at excludes it); "before" is strict.
 */
export const CREATED_TIME_FILTERS = {
  created_after: {
    sql: 'created_at >= ?',
    value: (shown: string) => new Date(new Date(shown).getTime() + 1),
  },
  created_before: { sql: 'created_at < ?', value: (shown: string) => new Date(shown) },
};

/**
 * The conditions, for TenantRepository.page(), of the parameters of `filters` that `query` gives
 * (a parameter left undefined does not filter): those of `equal` first, then those of `where`.
 */
export function listFilters<Q extends object>(query: Q, filters: ListFilters<Q>): PageFilter[] {
  const conditions: PageFilter[] = [];
  for (const name of filters.equal ?? []) {
    if (query[name] !== undefined) conditions.push({ sql: `${name} = ?`, value: query[name] });
  }
  const where: Partial<Record<keyof Q, ParameterCondition<unknown>>> = filters.where ?? {};
  for (const name of Object.keys(where) as (keyof Q & string)[]) {
    const given = query[name];
    const condition = where[name];
    if (given === undefined || condition === undefined) continue;
    conditions.push(
      typeof condition === 'string'
        ? { sql: condition, value: given }
        : { sql: condition.sql, value: condition.value(given) },
    );
  }
  return conditions;
}
