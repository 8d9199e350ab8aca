import { Injectable, SetMetadata } from '@nestjs/common';

export type ApiObject = Record<string, unknown>;

/** A field of a resource that expand[] can follow. */
export type ExpandableField =
  /** An id (or array of ids) in `source`, replaced in `target` by the loaded object(s). */
  | { kind: 'reference'; source: string; target: string; resource: string }
  /** An embedded object or array of sub-resources of type `resource` (e.g. order lines). */
  | { kind: 'embedded'; resource: string };

export interface ResourceDefinition {
  /** e.g. `tag`, `order`, `order_line`. */
  name: string;
  fields: Record<string, ExpandableField>;
  /** Loads serialized objects by id, in one query for the whole batch. Absent for embedded types. */
  load?: (ids: string[]) => Promise<Map<string, object>>;
}

/**
 * expand[] fields that each name another resource by id, `{ parent: 'ledger_account' }` for the
 * ledger account whose id is in `parent_id`, expanded into `parent`.
 */
export const references = (fields: Record<string, string>): Record<string, ExpandableField> =>
  Object.fromEntries(
    Object.entries(fields).map(([target, resource]) => [
      target,
      { kind: 'reference', source: `${target}_id`, target, resource },
    ]),
  );

const declaredFields = new Map<string, Record<string, ExpandableField>>();

/**
 * Declares the fields expand[] follows on `resource` when its module loads, and returns them for
 * the resource's register() call. The OpenAPI description, built before any service starts,
 * reads the declarations (declaredExpansions) to describe the expanded objects and the accepted
 * expand[] paths.
 */
export function expandableFields<F extends Record<string, ExpandableField>>(resource: string, fields: F): F {
  declaredFields.set(resource, fields);
  return fields;
}

/** Every resource's declared expand[] fields, by resource name. */
export const declaredExpansions = (): ReadonlyMap<string, Record<string, ExpandableField>> => declaredFields;

/** Where the records of a resource come from: a repository presenting the caller's records by id. */
export interface RecordSource<E> {
  presentByIds<T extends { id: string }>(
    ids: readonly string[],
    present: (records: E[]) => T[] | Promise<T[]>,
  ): Promise<Map<string, T>>;
}

export const RESOURCE_KEY = 'erp:resource';
export const MAX_EXPAND_DEPTH = 4;

/** Names the resource a route returns (or lists), so expand[] and If-Match know its shape. */
export const ApiResource = (name: string) => SetMetadata(RESOURCE_KEY, name);

/** The resources that expand[] and conditional requests know; each context registers its own. */
@Injectable()
export class ResourceRegistry {
  private readonly definitions = new Map<string, ResourceDefinition>();

  register(definition: ResourceDefinition): void {
    this.definitions.set(definition.name, definition);
  }

  /** Registers a resource whose objects are `source`'s records, each presented by `present`. */
  registerRecords<E, T extends { id: string }>(
    name: string,
    source: RecordSource<E>,
    present: (record: E) => T,
    fields: Record<string, ExpandableField> = {},
  ): void {
    this.register({
      name,
      fields,
      load: (ids) => source.presentByIds(ids, (records) => records.map((record) => present(record))),
    });
  }

  get(name: string): ResourceDefinition | undefined {
    return this.definitions.get(name);
  }

  /** Loads one object by id, as a retrieve would return it (unexpanded). */
  async loadOne(name: string, id: string): Promise<ApiObject | undefined> {
    const load = this.definitions.get(name)?.load;
    return load ? ((await load([id])).get(id) as ApiObject | undefined) : undefined;
  }
}
