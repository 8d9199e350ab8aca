import { Provider } from '@nestjs/common';
import { EntityTarget } from 'typeorm';
import { EventPublisher } from '../events/event-publisher';
import { ResourceRegistry } from '../http/expand/expand-registry';
import { TransactionHost } from '../persistence/transaction-host';
import { DefinedResourceService, ResourceDefinition } from './defined-resource.service';
import { GenericTenantRepository } from './generic-tenant.repository';
import { ReferenceRecord } from './reference-record';

/** What distinguishes one reference list (locations, payment terms, ...) from another. */
export interface ReferenceListDefinition<E extends ReferenceRecord = ReferenceRecord> {
  /** The `object` value and the expand[] resource name, e.g. `payment_term`. */
  object: string;
  /** Human name for hints and summaries, e.g. `payment term`. */
  label: string;
  entity: EntityTarget<E>;
  /** Request fields that may be set to null on update. */
  nullable: readonly string[];
  /** Copies request fields (snake_case, already validated) onto the record. */
  assign(record: E, input: Record<string, unknown>): void;
  /** Fields of the representation beyond the common ones. */
  present(record: E): Record<string, unknown>;
  /** Rules across fields, checked on the record after create or update. */
  check?(record: E): void;
}

/** CRUD of one reference list, with `setting.*` events (the defined-resource engine over the entity's records). */
export type ReferenceListService<E extends ReferenceRecord = ReferenceRecord> = DefinedResourceService<E>;

/** The DI token of a reference list's service, e.g. `payment_term`. */
export const referenceListToken = (object: string) => `reference-list:${object}`;

/** Copies the listed snake_case request fields onto camelCase record properties when present. */
export function copyFields<E>(
  record: E,
  input: Record<string, unknown>,
  fields: Record<string, keyof E>,
  convert: (field: string, v: unknown) => unknown = (_, v) => v,
): void {
  for (const [field, property] of Object.entries(fields)) {
    if (input[field] !== undefined)
      (record as Record<keyof E, unknown>)[property] = convert(field, input[field]);
  }
}

/** Copies the fields every reference list has (name and code, trimmed). */
export function assignNameAndCode<E extends ReferenceRecord>(
  record: E,
  input: Record<string, unknown>,
): void {
  copyFields(record, input, { name: 'name', code: 'code' } as Record<string, keyof E>, (_, v) =>
    String(v).trim(),
  );
}

/** The engine's definition of a reference list: the common fields around its own, and the `setting.*` events. */
export function referenceResource<E extends ReferenceRecord>(
  list: ReferenceListDefinition<E>,
): ResourceDefinition<E> {
  return {
    object: list.object,
    label: list.label,
    nullable: list.nullable,
    events: { created: 'setting.created', updated: 'setting.updated', deleted: 'setting.deleted' },
    assign: (record, input) => list.assign(record, input),
    check: list.check && ((record) => list.check!(record)),
    present: (record) => ({
      id: record.id,
      object: list.object,
      name: record.name,
      code: record.code,
      ...list.present(record),
      livemode: record.livemode,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    }),
  };
}

/** The service of one reference list. */
export function referenceListService<E extends ReferenceRecord>(
  list: ReferenceListDefinition<E>,
  tx: TransactionHost,
  events: EventPublisher,
  resources: ResourceRegistry,
): ReferenceListService<E> {
  const repo = new GenericTenantRepository(tx, list.entity, list.label);
  return new DefinedResourceService(referenceResource(list), { kind: 'entity', repo }, tx, events, resources);
}

/** The provider of a reference list's service, under referenceListToken(list.object). */
export function referenceListProvider<E extends ReferenceRecord>(list: ReferenceListDefinition<E>): Provider {
  return {
    provide: referenceListToken(list.object),
    useFactory: (tx: TransactionHost, events: EventPublisher, resources: ResourceRegistry) =>
      referenceListService(list, tx, events, resources),
    inject: [TransactionHost, EventPublisher, ResourceRegistry],
  };
}
