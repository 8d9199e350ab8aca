import { EntityTarget } from 'typeorm';
import { EventPublisher } from '../../../platform/events/event-publisher';
import { ResourceRegistry } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '../../../platform/http/list/paginate';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { refuseNulls } from '../domain/sales-error';
import { ReferenceRecord } from '../infrastructure/reference-list.entity';
import { GenericTenantRepository } from '../infrastructure/sales.repositories';
import { translateConstraintError } from './persistence-errors';

export type ReferenceResource = { id: string; object: string } & Record<string, unknown>;

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

/** CRUD of one reference list, with `setting.*` events; one instance per definition. */
export class ReferenceListService<E extends ReferenceRecord = ReferenceRecord> {
  private readonly repo: GenericTenantRepository<E>;

  constructor(
    readonly definition: ReferenceListDefinition<E>,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    resources: ResourceRegistry,
  ) {
    this.repo = new GenericTenantRepository(tx, definition.entity, definition.label);
    resources.register({
      name: definition.object,
      fields: {},
      load: async (ids) => new Map((await this.repo.findByIds(ids)).map((r) => [r.id, this.present(r)])),
    });
  }

  present(record: E): ReferenceResource {
    return {
      id: record.id,
      object: this.definition.object,
      name: record.name,
      code: record.code,
      ...this.definition.present(record),
      livemode: record.livemode,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  }

  async create(input: Record<string, unknown>): Promise<ReferenceResource> {
    return this.write(async () => {
      const draft = {} as E;
      this.definition.assign(draft, input);
      this.definition.check?.(draft);
      const record = await this.repo.create(draft);
      const resource = this.present(record);
      await this.events.publish('setting.created', resource);
      return resource;
    });
  }

  async list(query: ListQueryDto, url: string): Promise<ListPage<ReferenceResource>> {
    const page = await this.repo.page(query, { url });
    return listEnvelope(
      page.rows.map((r) => this.present(r)),
      page,
      url,
    );
  }

  async retrieve(id: string): Promise<ReferenceResource> {
    return this.present(await this.repo.getById(id));
  }

  /** Whether a record of this list exists for the caller (used to check references). */
  async exists(id: string): Promise<boolean> {
    return (await this.repo.findById(id)) !== null;
  }

  async update(id: string, input: Record<string, unknown>): Promise<ReferenceResource> {
    refuseNulls(input, this.definition.nullable);
    return this.write(async () => {
      const record = await this.repo.getForUpdate(id);
      const before = this.present(record);
      this.definition.assign(record, input);
      this.definition.check?.(record);
      const changed = Object.keys(before).filter(
        (k) => k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(this.present(record)[k]),
      );
      if (changed.length === 0) return before;
      const resource = this.present(await this.repo.save(record));
      await this.events.publish(
        'setting.updated',
        resource,
        Object.fromEntries(changed.map((k) => [k, before[k]])),
      );
      return resource;
    });
  }

  /** Permanent; refused with 409 while other records still reference it. */
  async delete(id: string): Promise<{ id: string; object: string; deleted: true }> {
    return this.write(async () => {
      const record = await this.repo.getForUpdate(id);
      const resource = this.present(record);
      await this.repo.delete(record);
      await this.events.publish('setting.deleted', resource);
      return { id, object: this.definition.object, deleted: true as const };
    });
  }

  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await this.tx.run(fn);
    } catch (error) {
      throw translateConstraintError(error, this.definition.label);
    }
  }
}
