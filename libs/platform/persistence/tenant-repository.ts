import { Injectable } from '@nestjs/common';
import { EntityManager, EntityTarget, FindOptionsWhere, Repository, SelectQueryBuilder } from 'typeorm';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';
import { RequestContext } from '../tenancy/request-context';
import { notFound } from '../errors/domain-error';
import { PageOptions, PageQuery, readPage } from '../pagination/keyset-page';
import { TenantRecord } from './columns';
import { isUuid, newId } from './ids';
import { paginate } from './paginate-query';
import { PlainReader } from './plain-reader';
import { TransactionHost, WriteStatement } from './transaction-host';

/**
 * A condition of a list on one column, written once for both paths of `page()`: `sql` names the
 * column unqualified and holds one `?` for `value`, e.g. `{ sql: 'document_type = ANY(?::text[])',
 * value: ['quote', 'invoice'] }`.
 */
export interface PageFilter {
  sql: string;
  value: unknown;
}

/**
 * Base of every tenant repository: each query is scoped by the caller's entity and mode,
 * read from the request context, so a record of another entity or mode is simply absent.
 */
export abstract class TenantRepository<E extends TenantRecord> {
  /**
   * The base of the repository of one record type, named in not-found hints `resourceName`:
   * `class TagRepository extends TenantRepository.of(TagRecord, 'tag') { ... }` states both once,
   * without a constructor (the transaction host is injected into the base).
   */
  static of<R extends TenantRecord>(target: EntityTarget<R>, resourceName: string) {
    @Injectable()
    class RepositoryOf extends TenantRepository<R> {
      constructor(tx: TransactionHost) {
        super(tx, target, resourceName);
      }
    }
    return RepositoryOf;
  }

  protected constructor(
    protected readonly tx: TransactionHost,
    private readonly target: EntityTarget<E>,
    /** Human name used in not-found hints, e.g. "tag". */
    protected readonly resourceName: string,
  ) {}

  protected get repo(): Repository<E> {
    return this.tx.manager.getRepository(this.target);
  }

  protected scope(): { entityId: string; livemode: boolean } {
    const { entityId, livemode } = RequestContext.caller();
    return { entityId, livemode };
  }

  /** A query builder already restricted to the caller's entity and mode. */
  scopedQuery(alias: string): SelectQueryBuilder<E> {
    const { entityId, livemode } = this.scope();
    return this.repo
      .createQueryBuilder(alias)
      .where(`${alias}.entity_id = :entityId AND ${alias}.livemode = :livemode`, { entityId, livemode });
  }

  /**
   * The prepared reader (undefined when the entity is more than plain columns): the same rows
   * and records as TypeORM's find, without rebuilding the statement on every request.
   */
  private plainReader(): PlainReader<E> | undefined {
    return PlainReader.of(this.tx.dataSource, this.target);
  }

  /** Whether this repository narrows scopedQuery() (hiding deleted rows, say). */
  private narrowsScope(): boolean {
    return this.scopedQuery !== TenantRepository.prototype.scopedQuery;
  }

  /** The open transaction's manager, for a plain read inside it (undefined outside one). */
  private readManager(): EntityManager | undefined {
    return this.tx.inTransaction ? this.tx.manager : undefined;
  }

  /** The record, or null (a hot read: one promise, the driver's, continued with `then`). */
  findById(id: string): Promise<E | null> {
    try {
      if (!isUuid(id)) return Promise.resolve(null);
      const reader = this.plainReader();
      if (reader) {
        const { entityId, livemode } = this.scope();
        return reader
          .query(
            `SELECT ${reader.selectList} FROM ${reader.table} WHERE id = $1 AND entity_id = $2 AND livemode = $3 LIMIT 1`,
            [id, entityId, livemode],
            this.readManager(),
          )
          .then(([found]) => found ?? null);
      }
      return this.repo.findOne({ where: { id, ...this.scope() } as FindOptionsWhere<E> });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** The caller's record whose columns hold these values (the properties of `where`), or null. */
  protected findOneWhere(where: FindOptionsWhere<E>): Promise<E | null> {
    return this.repo.findOne({ where: { ...where, ...this.scope() } as FindOptionsWhere<E> });
  }

  /** The record, or the contract's 404. */
  getById(id: string): Promise<E> {
    return this.findById(id).then((found) => {
      if (!found) throw notFound(this.resourceName, id);
      return found;
    });
  }

  /** Loads several records in one query (used by expand[] to avoid N+1). */
  async findByIds(ids: readonly string[]): Promise<E[]> {
    const valid = [...new Set(ids)].filter(isUuid);
    if (valid.length === 0) return [];
    const plain = await this.plainWhere('id = ANY($3::uuid[])', [valid]);
    if (plain) return plain;
    return this.scopedQuery('r').andWhere('r.id IN (:...ids)', { ids: valid }).getMany();
  }

  /**
   * The caller's records of several parents in one query, grouped by the parent id held in
   * `property` (column `column`): every id asked for is a key, its records sorted by `orderBy`
   * (columns, ascending).
   */
  protected async groupedBy(
    property: keyof E & string,
    column: string,
    parentIds: readonly string[],
    orderBy: readonly string[] = ['id'],
  ): Promise<Map<string, E[]>> {
    const groups = new Map<string, E[]>(parentIds.map((id) => [id, []]));
    if (parentIds.length === 0) return groups;
    const ids = [...new Set(parentIds)];
    const rows =
      (this.narrowsScope()
        ? undefined
        : await this.plainWhere(`${column} = ANY($3)`, [ids], orderBy.map((c) => `${c} ASC`).join(', '))) ??
      (await this.groupedQuery(column, ids, orderBy).getMany());
    for (const row of rows) groups.get(row[property] as string)?.push(row);
    return groups;
  }

  private groupedQuery(
    column: string,
    parentIds: string[],
    orderBy: readonly string[],
  ): SelectQueryBuilder<E> {
    const qb = this.scopedQuery('r').andWhere(`r.${column} IN (:...parentIds)`, { parentIds });
    orderBy.forEach((c, i) => (i === 0 ? qb.orderBy(`r.${c}`, 'ASC') : qb.addOrderBy(`r.${c}`, 'ASC')));
    return qb;
  }

  /**
   * The records of `ids` that the caller can see, presented by `present` and keyed by id: what an
   * expand[] loader answers, in one query for the batch.
   */
  async presentByIds<T extends { id: string }>(
    ids: readonly string[],
    present: (records: E[]) => T[] | Promise<T[]>,
  ): Promise<Map<string, T>> {
    return new Map((await present(await this.findByIds(ids))).map((resource) => [resource.id, resource]));
  }

  /**
   * The caller's records matching `condition` (SQL on unqualified columns, parameters from `$3`
   * on, `values` in order) and sorted by `orderBy` (locked until the transaction ends with
   * `forUpdate`, which needs one), as one prepared statement, on the open transaction's
   * connection when there is one; undefined where the prepared reader does not apply (an entity
   * beyond plain columns, or a repository narrowing scopedQuery() inside a transaction): the
   * caller then uses the query builder.
   */
  protected async plainWhere(
    condition: string,
    values: unknown[],
    orderBy?: string,
    forUpdate = false,
  ): Promise<E[] | undefined> {
    // Inside a transaction a repository that narrows scopedQuery() keeps the query builder.
    if (this.tx.inTransaction && this.narrowsScope()) return undefined;
    const reader = this.plainReader();
    if (!reader) return undefined;
    const { entityId, livemode } = this.scope();
    return reader.query(
      `SELECT ${reader.selectList} FROM ${reader.table} WHERE entity_id = $1 AND livemode = $2 AND ${condition}${orderBy ? ` ORDER BY ${orderBy}` : ''}${forUpdate ? ' FOR UPDATE' : ''}`,
      [entityId, livemode, ...values],
      forUpdate ? this.tx.transactional : this.readManager(),
    );
  }

  /**
   * plainWhere() for a repository of a plain entity that does not narrow scopedQuery(), where the
   * prepared reader always applies: its one path, without a query-builder copy of the condition.
   */
  protected async plainRows(
    condition: string,
    values: unknown[],
    orderBy?: string,
    forUpdate = false,
  ): Promise<E[]> {
    const rows = await this.plainWhere(condition, values, orderBy, forUpdate);
    if (!rows) throw new Error(`The ${this.resourceName} repository cannot use the prepared reader`);
    return rows;
  }

  /** Locks the row for the rest of the transaction. */
  async getForUpdate(id: string): Promise<E> {
    if (!isUuid(id)) throw notFound(this.resourceName, id);
    return (await this.getManyForUpdate([id]))[0];
  }

  /**
   * getForUpdate() for several records in one statement: the caller's records of `ids`, locked in
   * id order (concurrent lockers never deadlock) and returned in that order; the contract's 404
   * for the first id in that order that is not one of them. A plain entity is read by the
   * prepared reader on the transaction's connection; one beyond plain columns, or a repository
   * that narrows scopedQuery() (hiding deleted rows, say), by the query builder.
   */
  async getManyForUpdate(ids: readonly string[]): Promise<E[]> {
    const sorted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const invalid = sorted.find((id) => !isUuid(id));
    if (invalid) throw notFound(this.resourceName, invalid);
    if (sorted.length === 0) return [];
    const reader = this.narrowsScope() ? undefined : this.plainReader();
    const { entityId, livemode } = this.scope();
    const locked = reader
      ? await reader.query(
          `SELECT ${reader.selectList} FROM ${reader.table}
            WHERE entity_id = $1 AND livemode = $2 AND id = ANY($3::uuid[]) ORDER BY id FOR UPDATE`,
          [entityId, livemode, sorted],
          this.tx.transactional,
        )
      : await this.scopedQuery('r')
          .andWhere('r.id IN (:...ids)', { ids: sorted })
          .orderBy('r.id', 'ASC')
          .setLock('pessimistic_write')
          .getMany();
    if (locked.length < sorted.length) {
      const found = new Set(locked.map((r) => r.id));
      throw notFound(
        this.resourceName,
        sorted.find((id) => !found.has(id))!,
      );
    }
    return locked;
  }

  /**
   * Writes `properties` of several records (locked by the caller) with one UPDATE, as save()
   * writes a changed record (version + 1, updated_at the transaction's timestamp, column
   * transformers applied), and sets the records' version and updated_at to what the database now
   * holds; the contract's 404 for a record that is not the caller's.
   */
  protected async updateMany(
    records: readonly E[],
    properties: readonly (keyof E & string)[],
  ): Promise<void> {
    if (records.length === 0) return;
    const metadata = this.tx.dataSource.getMetadata(this.target);
    const driver = this.tx.dataSource.driver;
    const columns = properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${this.resourceName} has no column for '${property}'`);
      return column;
    });
    const { entityId, livemode } = this.scope();
    const sets = columns.map((c, i) => `${driver.escape(c.databaseName)} = v.c${i}`).join(', ');
    const arrays = columns.map((c, i) => `$${i + 4}::${driver.normalizeType(c)}[]`).join(', ');
    const names = columns.map((_, i) => `c${i}`).join(', ');
    // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM's PostgreSQL driver.
    const [rows] = (await this.tx.transactional.query(
      `UPDATE ${driver.escape(metadata.tableName)} r
          SET ${sets}, version = r.version + 1, updated_at = CURRENT_TIMESTAMP
         FROM unnest($3::uuid[], ${arrays}) AS v(id, ${names})
        WHERE r.entity_id = $1 AND r.livemode = $2 AND r.id = v.id
       RETURNING r.id, r.version, r.updated_at`,
      [
        entityId,
        livemode,
        records.map((r) => r.id),
        ...columns.map((c) =>
          records.map((r) => {
            const value: unknown = c.getEntityValue(r);
            return c.transformer ? ApplyValueTransformers.transformTo(c.transformer, value) : value;
          }),
        ),
      ],
    )) as [{ id: string; version: number; updated_at: Date }[], number];
    const written = new Map(rows.map((r) => [r.id, r]));
    for (const record of records) {
      const row = written.get(record.id);
      if (!row) throw notFound(this.resourceName, record.id);
      record.version = row.version;
      record.updatedAt = row.updated_at;
    }
  }

  /**
   * Inserts a new record owned by the caller's entity and mode, under a new id or under `id`
   * when the record takes one already given (another record's, or rows staged under it).
   */
  async create(values: Omit<Partial<E>, keyof TenantRecord>, id: string = newId()): Promise<E> {
    const entity = this.tx.transactional.getRepository(this.target).create({
      ...values,
      id,
      ...this.scope(),
    } as unknown as E);
    return this.tx.transactional.getRepository(this.target).save(entity);
  }

  /**
   * Inserts several new records of the caller's entity and mode with multi-row INSERTs (no
   * read-back); ids, timestamps and version are set here, so the returned records are complete.
   */
  async createMany(values: readonly Omit<Partial<E>, keyof TenantRecord>[]): Promise<E[]> {
    if (values.length === 0) return [];
    return this.insertBuilt(this.buildMany(values));
  }

  /**
   * New records of the caller's entity and mode, complete (ids, timestamps, version) but not yet
   * written: for a writer that needs their ids before it inserts them with insertBuilt().
   */
  buildMany(values: readonly Omit<Partial<E>, keyof TenantRecord>[]): E[] {
    const now = new Date();
    const scope = this.scope();
    const metadata = this.tx.manager.connection.getMetadata(this.target);
    // Plain column values (no relations), so the entity is the class instance with them assigned.
    return values.map((v) =>
      Object.assign(metadata.create() as E, v, {
        id: newId(),
        ...scope,
        createdAt: now,
        updatedAt: now,
        version: 1,
      }),
    );
  }

  /** Inserts records made by buildMany() with one multi-row INSERT (no read-back). */
  async insertBuilt(entities: E[]): Promise<E[]> {
    const statement = this.insertStatement(entities);
    if (statement) await this.tx.transactional.query(statement.sql, statement.params);
    return entities;
  }

  /**
   * The INSERT of insertBuilt(), not sent: for a writer that sends it with others in one
   * statement (combinedWrite). Null when there is nothing to insert.
   */
  insertStatement(entities: readonly E[]): WriteStatement | null {
    if (entities.length === 0) return null;
    const manager = this.tx.transactional;
    const metadata = manager.connection.getMetadata(this.target);
    // One INSERT ... SELECT FROM unnest(one array per column): a fixed number of parameters and a
    // small plan, where the query builder's VALUES list costs more than the database does.
    // Values go through the column's transformer and the driver's preparation, as in save().
    const driver = manager.connection.driver;
    const columns = metadata.columns.filter((c) => !c.isVirtual);
    const arrays = columns.map((column) =>
      entities.map((entity) => {
        const value = column.getEntityValue(entity, true);
        return value === undefined || value === null ? null : driver.preparePersistentValue(value, column);
      }),
    );
    const casts = columns.map((column, i) => {
      const type = driver.normalizeType(column);
      return `$${i + 1}::${column.length && type === 'character' ? `character(${column.length})` : type}[]`;
    });
    const names = columns.map((c) => `"${c.databaseName}"`).join(', ');
    return {
      sql: `INSERT INTO ${metadata.tablePath} (${names}) SELECT * FROM unnest(${casts.join(', ')})`,
      params: arrays,
    };
  }

  async save(entity: E): Promise<E> {
    return this.tx.transactional.getRepository(this.target).save(entity);
  }

  async delete(entity: E): Promise<void> {
    await this.tx.transactional
      .getRepository(this.target)
      .delete({ id: entity.id, ...this.scope() } as FindOptionsWhere<E>);
  }

  async page(
    query: PageQuery,
    options: PageOptions,
    build?: ((qb: SelectQueryBuilder<E>) => void) | readonly PageFilter[],
  ) {
    // A keyset page with column filters only (no query-builder callback, no count, the default
    // key) runs as one prepared statement; everything else goes through the query builder.
    const filters = Array.isArray(build) ? (build as readonly PageFilter[]) : [];
    const callback = typeof build === 'function' ? build : undefined;
    const plain = !callback && !options.keyColumn && !query.include_count && !this.narrowsScope();
    const reader = plain ? this.plainReader() : undefined;
    if (reader) return this.plainPage(reader, query, options, filters);
    const qb = this.scopedQuery('r');
    filters.forEach((filter, i) =>
      qb.andWhere(`r.${filter.sql.replace('?', `:pageFilter${i}`)}`, { [`pageFilter${i}`]: filter.value }),
    );
    callback?.(qb);
    return paginate(qb, query, options);
  }

  /** readPage() over the caller's records, as one statement on the prepared reader. */
  private plainPage(
    reader: PlainReader<E>,
    query: PageQuery,
    options: PageOptions,
    filters: readonly PageFilter[],
  ): Promise<{ rows: E[]; has_more: boolean; total_count?: number }> {
    return readPage(query, options, (window) => {
      const { entityId, livemode } = this.scope();
      const values: unknown[] = [entityId, livemode];
      let where = 'entity_id = $1 AND livemode = $2';
      for (const filter of filters) {
        values.push(filter.value);
        where += ` AND ${filter.sql.replace('?', `$${values.length}`)}`;
      }
      if (window.cursor) {
        values.push(window.cursor.value);
        where += ` AND id ${window.cursor.op} $${values.length}`;
      }
      values.push(window.take);
      return reader.query(
        `SELECT ${reader.selectList} FROM ${reader.table} WHERE ${where} ORDER BY id ${window.order} LIMIT $${values.length}`,
        values,
        this.readManager(),
      );
    });
  }
}
