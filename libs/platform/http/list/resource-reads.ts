import type { TenantRecord } from '../../persistence/columns';
import type { TenantRepository } from '../../persistence/tenant-repository';
import { listEnvelope, type ListPage, type PageQuery } from './paginate';

/** Where a resource's records are read: a page of them for a list query, or one by id (not found: 404). */
export interface RecordSource<Row, Query> {
  list(query: Query, url: string): Promise<{ rows: Row[]; has_more: boolean; total_count?: number }>;
  getById(id: string): Promise<Row>;
}

/**
 * The list and retrieve of an application service whose resource is a presented record: rows read
 * from `source` (its repository), each turned into the resource by `present`, a page of them
 * answered in the list envelope at `url`. A service extends it and passes both to `super`.
 */
export abstract class ResourceReads<Row, Resource, Query> {
  readonly #source: RecordSource<Row, Query>;
  readonly #present: (row: Row) => Resource;

  protected constructor(source: RecordSource<Row, Query>, present: (row: Row) => Resource) {
    this.#source = source;
    this.#present = present;
  }

  async list(query: Query, url: string): Promise<ListPage<Resource>> {
    const page = await this.#source.list(query, url);
    return listEnvelope(page.rows.map(this.#present), page, url);
  }

  async retrieve(id: string): Promise<Resource> {
    return this.#present(await this.#source.getById(id));
  }
}

/** A repository's records listed whole, without filters: `page(query, { url })`. */
export const allRecords = <E extends TenantRecord>(
  repo: TenantRepository<E>,
): RecordSource<E, PageQuery> => ({
  list: (query, url) => repo.page(query, { url }),
  getById: (id) => repo.getById(id),
});
