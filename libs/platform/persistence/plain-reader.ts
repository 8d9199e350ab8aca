import { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { rawPool } from './raw-pool';

/**
 * Reads records of a plain entity (columns only) with SQL built once, straight on the `pg`
 * pool, and hydrates them the way TypeORM's find does (same columns, the driver's value
 * preparation and column transformers, instances created as the deserializer does).
 *
 * TypeORM builds and escapes the whole statement again on every find, which on a one-row
 * read costs more than the query itself. Entities with anything beyond plain columns
 * (relations, embeddeds, soft delete, inheritance, load listeners or subscribers) are not
 * eligible: `PlainReader.of` answers undefined and callers keep TypeORM's path.
 */
export class PlainReader<E extends ObjectLiteral> {
  /** `"id", "entity_id", ...`: the columns TypeORM's find selects, in their database names. */
  readonly selectList: string;
  /** The escaped table name. */
  readonly table: string;
  private readonly columns: ColumnMetadata[];

  private constructor(
    private readonly dataSource: DataSource,
    private readonly metadata: EntityMetadata,
  ) {
    const driver = dataSource.driver;
    this.columns = metadata.columns.filter((c) => c.isSelect && !c.isVirtual);
    this.selectList = this.columns.map((c) => driver.escape(c.databaseName)).join(', ');
    this.table = metadata.tablePath
      .split('.')
      .map((part) => driver.escape(part))
      .join('.');
  }

  private static readonly readers = new WeakMap<
    DataSource,
    Map<EntityTarget<ObjectLiteral>, PlainReader<ObjectLiteral> | null>
  >();

  /** The reader of `target`, or undefined when the entity needs TypeORM's full find. */
  static of<E extends ObjectLiteral>(
    dataSource: DataSource,
    target: EntityTarget<E>,
  ): PlainReader<E> | undefined {
    let byTarget = PlainReader.readers.get(dataSource);
    if (!byTarget) PlainReader.readers.set(dataSource, (byTarget = new Map()));
    let reader = byTarget.get(target as EntityTarget<ObjectLiteral>);
    if (reader === undefined) {
      const metadata = dataSource.getMetadata(target);
      reader = PlainReader.eligible(dataSource, metadata)
        ? new PlainReader<ObjectLiteral>(dataSource, metadata)
        : null;
      byTarget.set(target as EntityTarget<ObjectLiteral>, reader);
    }
    return (reader ?? undefined) as PlainReader<E> | undefined;
  }

  private static eligible(dataSource: DataSource, m: EntityMetadata): boolean {
    return (
      dataSource.driver.options.type === 'postgres' &&
      m.tableType === 'regular' &&
      !m.discriminatorColumn &&
      m.childEntityMetadatas.length === 0 &&
      !m.parentEntityMetadata &&
      m.relations.length === 0 &&
      m.relationIds.length === 0 &&
      m.embeddeds.length === 0 &&
      m.lazyRelations.length === 0 &&
      !m.deleteDateColumn &&
      m.afterLoadListeners.length === 0 &&
      !dataSource.options.typename &&
      dataSource.subscribers.length === 0 &&
      m.columns.every((c) => !c.isVirtualProperty && !c.embeddedMetadata && !c.relationMetadata)
    );
  }

  /** Runs `sql` (selecting `selectList` from `table`) outside any transaction and hydrates the rows. */
  async query(sql: string, values: unknown[]): Promise<E[]> {
    const { rows } = await rawPool(this.dataSource).query<Record<string, unknown>>({ text: sql, values });
    return rows.map((row) => this.hydrate(row));
  }

  hydrate(row: Record<string, unknown>): E {
    const driver = this.dataSource.driver;
    const entity = this.metadata.create(undefined, { fromDeserializer: true }) as E;
    for (const column of this.columns) {
      const value = row[column.databaseName];
      if (value === undefined) continue;
      column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
    }
    return entity;
  }
}
