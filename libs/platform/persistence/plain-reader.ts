import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';
import { rawPool } from './raw-pool';

/** A column's values kept as the driver gives them. */
const IDENTITY = (value: unknown): unknown => value;

const TIMESTAMP_TYPES: ReadonlySet<unknown> = new Set([
  'datetime',
  Date,
  'timestamp',
  'timestamptz',
  'timestamp with time zone',
  'timestamp without time zone',
]);

/** Column types whose values the Postgres driver converts on hydration (PostgresDriver.prepareHydratedValue). */
const CONVERTED_TYPES: ReadonlySet<unknown> = new Set([
  ...TIMESTAMP_TYPES,
  Boolean,
  Number,
  'date',
  'time',
  'vector',
  'halfvec',
  'hstore',
  'simple-array',
  'simple-json',
  'cube',
  'enum',
  'simple-enum',
]);

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
  /** Per column, in select order: database name, property name and the value's conversion. */
  private readonly fields: { name: string; property: string; convert: (value: unknown) => unknown }[];

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
    const fields = this.columns.map((column) => ({
      name: column.databaseName,
      property: column.propertyName,
      convert: PlainReader.converter(dataSource, column),
    }));
    // A record made with `new` has every declared field as an own property, in declaration order.
    // When those are exactly the selected columns, all undefined until set, the same record is
    // built from the prototype with the fields assigned in that order, without running the
    // class's field initializers (one property definition per field) for every row.
    const template = metadata.create(undefined, { fromDeserializer: true }) as Record<string, unknown>;
    const declared = Object.keys(template);
    const byProperty = new Map(fields.map((f) => [f.property, f]));
    this.prototype =
      typeof metadata.target === 'function' &&
      Object.getPrototypeOf(template) === (metadata.target as { prototype: object }).prototype &&
      declared.length === fields.length &&
      declared.every((p) => byProperty.has(p) && template[p] === undefined)
        ? (metadata.target as { prototype: object }).prototype
        : undefined;
    this.fields = this.prototype ? declared.map((p) => byProperty.get(p)!) : fields;
    this.fromPrototype = this.prototype ? PlainReader.compile(this.prototype, this.fields) : undefined;
  }

  /** Builds records from the prototype (see the constructor); undefined when that is not possible. */
  private readonly fromPrototype: ((row: Record<string, unknown>) => E) | undefined;

  /**
   * The hydration of one entity as a function of its own, its fields assigned in a fixed order by
   * name (one shape, the property stores monomorphic), a conversion called only where a column
   * has one. Property and column names come from the entity's metadata and are written as JSON
   * string literals.
   */
  private static compile<E>(
    prototype: object,
    fields: readonly { name: string; property: string; convert: (value: unknown) => unknown }[],
  ): (row: Record<string, unknown>) => E {
    const lines = fields.map((f, i) => {
      const value = `row[${JSON.stringify(f.name)}]`;
      const target = `e[${JSON.stringify(f.property)}]`;
      return f.convert === IDENTITY
        ? `${target} = ${value};`
        : `{ const v = ${value}; ${target} = v === undefined ? undefined : c${i}(v); }`;
    });
    const converters = fields.map((f, i) => `const c${i} = converters[${i}];`).join('\n');
    const make = new Function(
      'proto',
      'converters',
      `${converters}\nreturn function hydrate(row) {\nconst e = Object.create(proto);\n${lines.join('\n')}\nreturn e;\n};`,
    ) as (proto: object, converters: unknown[]) => (row: Record<string, unknown>) => E;
    return make(
      prototype,
      fields.map((f) => f.convert),
    );
  }

  /** The entity's prototype when records can be built from it directly (see the constructor). */
  private readonly prototype: object | undefined;

  /**
   * What the driver's `prepareHydratedValue` does to one column's values, decided once: for the
   * column types it leaves alone (text, uuid, integer, numeric, jsonb, ...) only the column's
   * transformer runs, and timestamps parsed by `pg` stay the Date they are; any other type keeps
   * the driver's own conversion.
   */
  private static converter(dataSource: DataSource, column: ColumnMetadata): (value: unknown) => unknown {
    const transformer = column.transformer;
    const type = column.type as unknown;
    if (CONVERTED_TYPES.has(type)) {
      if (!TIMESTAMP_TYPES.has(type)) return (value) => dataSource.driver.prepareHydratedValue(value, column);
      const toDate = (value: unknown) => (typeof value === 'string' && value ? new Date(value) : value);
      return transformer
        ? (value) => ApplyValueTransformers.transformFrom(transformer, value === null ? value : toDate(value))
        : toDate;
    }
    if (!transformer) return IDENTITY;
    if (!Array.isArray(transformer)) return (value) => transformer.from(value);
    return (value) => ApplyValueTransformers.transformFrom(transformer, value);
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

  /**
   * Runs `sql` (selecting `selectList` from `table`) and hydrates the rows: through `manager`
   * (the open transaction's) when given, else straight on the pool (one promise: the driver's,
   * continued with `then`, no async frame of its own).
   */
  query(sql: string, values: unknown[], manager?: EntityManager): Promise<E[]> {
    if (manager)
      return (manager.query(sql, values) as Promise<Record<string, unknown>[]>).then((rows) =>
        rows.map((row) => this.hydrate(row)),
      );
    return rawPool(this.dataSource)
      .query<Record<string, unknown>>(sql, values)
      .then(({ rows }) => rows.map((row) => this.hydrate(row)));
  }

  hydrate(row: Record<string, unknown>): E {
    if (this.fromPrototype) return this.fromPrototype(row);
    const entity = this.metadata.create(undefined, { fromDeserializer: true }) as Record<string, unknown>;
    for (const field of this.fields) {
      const value = row[field.name];
      if (value === undefined) continue;
      entity[field.property] = field.convert(value);
    }
    return entity as E;
  }
}
