import { EntityTarget } from 'typeorm';
import { EventPublisher } from '#platform/events/event-publisher';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReferenceRecord } from '../infrastructure/reference-list.entity';
import { GenericTenantRepository } from '../infrastructure/generic-tenant.repository';
import { DefinedResource, DefinedResourceService, ResourceDefinition } from './defined-resource.service';

export type ReferenceResource = DefinedResource;

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
