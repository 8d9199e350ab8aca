import { previousAttributes } from '../events/previous-attributes';
import { EventPublisher } from '../events/event-publisher';
import { ResourceRegistry } from '../http/expand/expand-registry';
import { ListQueryDto } from '../http/list/list-query.dto';
import { listEnvelope, ListPage } from '../http/list/paginate';
import { TenantRecord } from '../persistence/columns';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { invalidParam } from '../errors/domain-error';
import { refuseNulls, translateConstraintError } from './resource-errors';

export type DefinedResource = { id: string; object: string } & Record<string, unknown>;
type Input = Record<string, unknown>;

/**
 * What distinguishes one simple resource from another: the reference lists of the entity
 * (locations, payment terms, ...) and the children of an account (addresses, contacts, payment
 * methods). The engine (DefinedResourceService) does the rest the same way for all of them.
 */
export interface ResourceDefinition<E extends TenantRecord> {
  /** The `object` value (and expand[] resource name), e.g. `payment_term`. */
  object: string;
  /** Human name for hints, e.g. `payment term`. */
  label: string;
  /** Request fields that may be set to null on update. */
  nullable: readonly string[];
  events: { created: string; updated: string; deleted: string; flagChanged?: string };
  /** Copies request fields (snake_case, already validated) onto the record. */
  assign(record: E, input: Input, creating: boolean): void;
  /** Rules across fields, checked on the record after create or update. */
  check?(record: E): void;
  present(record: E): DefinedResource;
  /**
   * For owned records (the children of an account): the flag (`is_default` / `is_primary`) held by exactly one
   * record per group whenever the group has records (per `groupBy` value; per owner otherwise).
   */
  flag?: { property: keyof E & string; field: string };
  groupBy?: keyof E & string;
}

/**
 * Where the records live: the entity's own (`entity`: a reference list, whose constraint
 * violations become the contract's 409s) or an owner's, such as an account's (`owned`: writes
 * lock the owner and may be refused; reads need it to exist).
 */
export type ResourceStore<E extends TenantRecord> =
  | { kind: 'entity'; repo: TenantRepository<E> }
  | {
      kind: 'owned';
      repo: TenantRepository<E> & OwnedRecords<E>;
      owners: RecordOwners;
      /** The record property holding the owner's id, e.g. `accountId`. */
      ownerProperty: keyof E & string;
    };

/** The reads and writes of one owner's records (for an account's: AccountChildRepository). */
export interface OwnedRecords<E extends TenantRecord> {
  getOfOwner(ownerId: string, id: string, lock?: boolean): Promise<E>;
  listOfOwner(ownerId: string, query: ListQueryDto, url: string): ReturnType<TenantRepository<E>['page']>;
  /** Oldest first. */
  allOfOwner(ownerId: string): Promise<E[]>;
  /** Clears `property` on the owner's records matching `where`. */
  clearFlag(ownerId: string, property: string, where?: Record<string, unknown>): Promise<void>;
  /** The newest record of the owner matching `where`, locked, if any. */
  newestOfOwner(ownerId: string, where?: Record<string, unknown>): Promise<E | null>;
  /** Moves every record to another owner with `property` cleared. */
  moveAll(fromOwnerId: string, toOwnerId: string, property: string): Promise<number>;
}

/** The owners of owned records (for an account's: the accounts). */
export interface RecordOwners {
  /** Throws when the owner does not exist for the caller. */
  find(ownerId: string): Promise<unknown>;
  /** Locks the owner for a change of its records (`action` names it for a refusal's hint); throws when it may not change. */
  lockForChange(ownerId: string, action: string): Promise<void>;
}

/** The leading arguments naming the owner: none for the entity's resources, the owner's id for owned ones. */
type Owner = [] | [ownerId: string];

/**
 * Create, list, retrieve, update and delete of one defined resource, with its events; for
 * owned records, the flag invariant too. One instance per definition.
 */
export class DefinedResourceService<E extends TenantRecord, O extends Owner = []> {
  constructor(
    readonly definition: ResourceDefinition<E>,
    private readonly store: ResourceStore<E>,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    resources?: ResourceRegistry,
  ) {
    resources?.register({ name: definition.object, fields: {}, load: (ids) => this.load(ids) });
  }

  present(record: E): DefinedResource {
    return this.definition.present(record);
  }

  async create(...args: [...O, Input]): Promise<DefinedResource> {
    const [owner, input] = this.split<[Input]>(args);
    return this.write(async () => {
      await this.lockOwner(owner, 'adding records');
      const { flag } = this.definition;
      const draft = (owner === null ? {} : { [this.ownerProperty]: owner }) as unknown as E;
      this.definition.assign(draft, input, true);
      this.definition.check?.(draft);
      let holder: E | null = null;
      let wantsFlag = false;
      if (flag && owner !== null) {
        // The first record of a group always holds the flag; a later one only when asked.
        holder = await this.children.newestOfOwner(owner, { ...this.group(draft), [flag.property]: true });
        wantsFlag = input[flag.field] === true || holder === null;
        if (wantsFlag && holder) await this.children.clearFlag(owner, flag.property, this.group(draft));
        (draft as Record<string, unknown>)[flag.property] = wantsFlag;
      }
      const resource = this.present(
        await this.store.repo.create(draft as unknown as Omit<Partial<E>, keyof TenantRecord>),
      );
      await this.events.publish(this.definition.events.created, resource);
      if (flag && wantsFlag && holder && this.definition.events.flagChanged) {
        await this.events.publish(this.definition.events.flagChanged, resource, { [flag.field]: false });
      }
      if (wantsFlag && holder) await this.publishDemotion(holder);
      return resource;
    });
  }

  async list(...args: [...O, ListQueryDto, string]): Promise<ListPage<DefinedResource>> {
    const [owner, query, url] = this.split<[ListQueryDto, string]>(args);
    let page;
    if (owner === null) page = await this.store.repo.page(query, { url });
    else {
      await this.owners.find(owner);
      page = await this.children.listOfOwner(owner, query, url);
    }
    return listEnvelope(
      page.rows.map((r) => this.present(r)),
      page,
      url,
    );
  }

  /** Serialized records by id in one query (expand[] and If-Match). */
  load(ids: readonly string[]): Promise<Map<string, DefinedResource>> {
    return this.store.repo.presentByIds(ids, (rows) => rows.map((r) => this.present(r)));
  }

  async retrieve(...args: [...O, string]): Promise<DefinedResource> {
    const [owner, id] = this.split<[string]>(args);
    if (owner !== null) await this.owners.find(owner);
    return this.present(await this.find(owner, id, false));
  }

  /** Whether a record exists for the caller (used to check references). */
  async exists(id: string): Promise<boolean> {
    return (await this.store.repo.findById(id)) !== null;
  }

  async update(...args: [...O, string, Input]): Promise<DefinedResource> {
    const [owner, id, input] = this.split<[string, Input]>(args);
    refuseNulls(input, this.definition.nullable);
    return this.write(async () => {
      await this.lockOwner(owner, 'changing its records');
      const { flag, events } = this.definition;
      const record = await this.find(owner, id, true);
      const held = flag !== undefined && record[flag.property] === true;
      if (flag && input[flag.field] === false && held) {
        throw invalidParam(
          flag.field,
          `This record is the account's ${flag.field.replace('is_', '')} one and one must exist; set ${flag.field}: true on another record instead.`,
        );
      }
      const before = this.present(record);
      const oldGroup = this.group(record);
      this.definition.assign(record, input, false);
      this.definition.check?.(record);
      const promotions: E[] = [];
      let demoted: E | null = null;
      if (flag && owner !== null) {
        const movedGroup = JSON.stringify(oldGroup) !== JSON.stringify(this.group(record));
        if (movedGroup && held) {
          // Leaving its group: the group keeps a holder, and the record holds the flag in the new group only if it has none.
          (record as Record<string, unknown>)[flag.property] = false;
          await this.store.repo.save(record);
          const next = await this.promoteNewest(owner, oldGroup, record.id);
          if (next) promotions.push(next);
        }
        const newGroupHolder = await this.children.newestOfOwner(owner, {
          ...this.group(record),
          [flag.property]: true,
        });
        const takesFlag =
          input[flag.field] === true ||
          (movedGroup && (newGroupHolder === null || newGroupHolder.id === record.id));
        if (takesFlag && newGroupHolder?.id !== record.id) {
          if (newGroupHolder) {
            await this.children.clearFlag(owner, flag.property, this.group(record));
            demoted = newGroupHolder;
          }
          (record as Record<string, unknown>)[flag.property] = true;
        }
      }
      const previous = previousAttributes(before, this.present(record));
      const changed = Object.keys(previous);
      if (changed.length === 0) return before;
      const resource = this.present(await this.store.repo.save(record));
      const onlyFlag = flag !== undefined && changed.length === 1 && changed[0] === flag.field;
      if (!onlyFlag || !events.flagChanged) await this.events.publish(events.updated, resource, previous);
      if (flag && changed.includes(flag.field) && events.flagChanged)
        await this.events.publish(events.flagChanged, resource, { [flag.field]: before[flag.field] });
      if (demoted) await this.publishDemotion(demoted);
      for (const promoted of promotions) await this.publishPromotion(promoted);
      return resource;
    });
  }

  /**
   * Removes the record (a reference list's record: refused with 409 while others reference it);
   * when it held the flag, the newest other record of its group takes it.
   */
  async delete(...args: [...O, string]): Promise<{ id: string; object: string; deleted: true }> {
    const [owner, id] = this.split<[string]>(args);
    return this.write(async () => {
      await this.lockOwner(owner, 'removing its records');
      const record = await this.find(owner, id, true);
      const resource = this.present(record);
      await this.store.repo.delete(record);
      await this.events.publish(this.definition.events.deleted, resource);
      const { flag } = this.definition;
      if (flag && owner !== null && record[flag.property] === true) {
        const promoted = await this.promoteNewest(owner, this.group(record), record.id);
        if (promoted) await this.publishPromotion(promoted);
      }
      return { id, object: this.definition.object, deleted: true as const };
    });
  }

  /** Moves every record to another owner (an account merge); groups left without a flag holder take the newest record. */
  async moveAll(fromOwnerId: string, toOwnerId: string): Promise<void> {
    const flag = this.definition.flag;
    if (!flag) throw new Error(`${this.definition.object} records have no owner to move between`);
    await this.children.moveAll(fromOwnerId, toOwnerId, flag.property);
    // Gives the flag to the newest record of each group that has none.
    const records = await this.children.allOfOwner(toOwnerId);
    const groups = new Map<string, Record<string, unknown>>();
    for (const r of records) groups.set(JSON.stringify(this.group(r)), this.group(r));
    for (const group of groups.values()) {
      const holder = await this.children.newestOfOwner(toOwnerId, { ...group, [flag.property]: true });
      if (!holder) await this.promoteNewest(toOwnerId, group);
    }
  }

  /** Splits the arguments into the owner (null for the entity's resources) and the rest. */
  private split<R extends unknown[]>(args: unknown[]): [string | null, ...R] {
    return (this.store.kind === 'owned' ? args : [null, ...args]) as [string | null, ...R];
  }

  private get children(): OwnedRecords<E> {
    if (this.store.kind !== 'owned') throw new Error(`${this.definition.object} records have no owner`);
    return this.store.repo;
  }

  private get owners(): RecordOwners {
    if (this.store.kind !== 'owned') throw new Error(`${this.definition.object} records have no owner`);
    return this.store.owners;
  }

  private get ownerProperty(): string {
    if (this.store.kind !== 'owned') throw new Error(`${this.definition.object} records have no owner`);
    return this.store.ownerProperty;
  }

  private find(owner: string | null, id: string, lock: boolean): Promise<E> {
    if (owner !== null) return this.children.getOfOwner(owner, id, lock);
    return lock ? this.store.repo.getForUpdate(id) : this.store.repo.getById(id);
  }

  private async lockOwner(owner: string | null, action: string): Promise<void> {
    if (owner === null) return;
    await this.owners.lockForChange(owner, action);
  }

  private async promoteNewest(
    ownerId: string,
    group: Record<string, unknown>,
    excludeId?: string,
  ): Promise<E | null> {
    const candidates = (await this.children.allOfOwner(ownerId)).filter(
      (r) => r.id !== excludeId && JSON.stringify(this.group(r)) === JSON.stringify(group),
    );
    const newest: E | undefined = candidates.at(-1);
    if (!newest) return null;
    (newest as Record<string, unknown>)[this.definition.flag!.property] = true;
    return this.store.repo.save(newest);
  }

  private async publishPromotion(record: E): Promise<void> {
    const { events, flag } = this.definition;
    await this.events.publish(events.flagChanged ?? events.updated, this.present(record), {
      [flag!.field]: false,
    });
  }

  /** The record that held the flag until another took it has changed too: its `updated` event says so. */
  private async publishDemotion(record: E): Promise<void> {
    const { events, flag } = this.definition;
    (record as Record<string, unknown>)[flag!.property] = false;
    await this.events.publish(events.updated, this.present(record), { [flag!.field]: true });
  }

  private group(record: E): Record<string, unknown> {
    const key = this.definition.groupBy;
    return key ? { [key]: record[key] } : {};
  }

  /** Runs `fn` in the transaction; a reference list's constraint violations become the contract's answers. */
  private async write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.store.kind === 'owned') return this.tx.run(fn);
    try {
      return await this.tx.run(fn);
    } catch (error) {
      throw translateConstraintError(error, this.definition.label);
    }
  }
}
