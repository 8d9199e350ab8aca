import { EventPublisher } from '../../../platform/events/event-publisher';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '../../../platform/http/list/paginate';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { assertActive } from '../domain/account';
import { invalidParam, refuseNulls } from '../domain/sales-error';
import { AccountChildRecord } from '../infrastructure/account.entity';
import { AccountChildRepository, AccountRepository } from '../infrastructure/sales.repositories';

type ChildResource = { id: string; object: string } & Record<string, unknown>;
type Input = Record<string, unknown>;

/**
 * What distinguishes addresses, contacts and payment methods: each hangs off an account and
 * has one flag (`is_default` / `is_primary`) held by exactly one record per group whenever
 * the group has records (per address type; per account otherwise).
 */
export interface AccountChildDefinition<E extends AccountChildRecord> {
  object: string;
  /** Record property of the flag, and its request/response field. */
  flag: { property: keyof E & string; field: string };
  /** Record property that splits the account's records into flag groups (address `type`). */
  groupBy?: keyof E & string;
  /** Request fields that may be null. */
  nullable: readonly string[];
  events: { created: string; updated: string; deleted: string; flagChanged?: string };
  assign(record: E, input: Input, creating: boolean): void;
  present(record: E): ChildResource;
}

/** The operations the HTTP layer uses (their signatures do not depend on the record type). */
export type AccountChildOperations = Pick<
  AccountChildService<AccountChildRecord>,
  'create' | 'list' | 'retrieve' | 'update' | 'delete'
>;

/** Create, list, retrieve, update and remove of one kind of account child, keeping its flag invariant. */
export class AccountChildService<E extends AccountChildRecord> {
  constructor(
    private readonly definition: AccountChildDefinition<E>,
    private readonly repo: AccountChildRepository<E>,
    private readonly accounts: AccountRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
  ) {}

  async create(accountId: string, input: Input): Promise<ChildResource> {
    return this.tx.run(async () => {
      await this.lockActiveAccount(accountId, 'adding records');
      const { flag } = this.definition;
      const draft = { accountId } as E;
      this.definition.assign(draft, input, true);
      const group = this.group(draft);
      // The first record of a group always holds the flag; a later one only when asked.
      const holder = await this.repo.newestOfAccount(accountId, { ...group, [flag.property]: true });
      const wantsFlag = input[flag.field] === true || holder === null;
      if (wantsFlag && holder) await this.repo.clearFlag(accountId, flag.property, this.group(draft));
      (draft as Record<string, unknown>)[flag.property] = wantsFlag;
      const resource = this.definition.present(await this.repo.create(draft));
      await this.events.publish(this.definition.events.created, resource);
      if (wantsFlag && holder && this.definition.events.flagChanged) {
        await this.events.publish(this.definition.events.flagChanged, resource, { [flag.field]: false });
      }
      return resource;
    });
  }

  async list(accountId: string, query: ListQueryDto, url: string): Promise<ListPage<ChildResource>> {
    await this.accounts.getById(accountId);
    const page = await this.repo.page(query, { url }, (qb) =>
      qb.andWhere('r.account_id = :accountId', { accountId }),
    );
    return listEnvelope(
      page.rows.map((r) => this.definition.present(r)),
      page,
      url,
    );
  }

  /** Serialized records by id in one query (expand[] and If-Match). */
  async load(ids: string[]): Promise<Map<string, object>> {
    return new Map((await this.repo.findByIds(ids)).map((r) => [r.id, this.definition.present(r)]));
  }

  async retrieve(accountId: string, id: string): Promise<ChildResource> {
    await this.accounts.getById(accountId);
    return this.definition.present(await this.repo.getOfAccount(accountId, id));
  }

  async update(accountId: string, id: string, input: Input): Promise<ChildResource> {
    refuseNulls(input, this.definition.nullable);
    return this.tx.run(async () => {
      await this.lockActiveAccount(accountId, 'changing its records');
      const { flag, events } = this.definition;
      const record = await this.repo.getOfAccount(accountId, id, true);
      const held = record[flag.property] === true;
      if (input[flag.field] === false && held) {
        throw invalidParam(
          flag.field,
          `This record is the account's ${flag.field.replace('is_', '')} one and one must exist; set ${flag.field}: true on another record instead.`,
        );
      }
      const before = this.definition.present(record);
      const oldGroup = this.group(record);
      this.definition.assign(record, input, false);
      const movedGroup = JSON.stringify(oldGroup) !== JSON.stringify(this.group(record));
      const promotions: E[] = [];
      if (movedGroup && held) {
        // Leaving its group: the group keeps a holder, and the record holds the flag in the new group only if it has none.
        (record as Record<string, unknown>)[flag.property] = false;
        await this.repo.save(record);
        const next = await this.promoteNewest(accountId, oldGroup, record.id);
        if (next) promotions.push(next);
      }
      const newGroupHolder = await this.repo.newestOfAccount(accountId, {
        ...this.group(record),
        [flag.property]: true,
      });
      const takesFlag =
        input[flag.field] === true ||
        (movedGroup && (newGroupHolder === null || newGroupHolder.id === record.id));
      if (takesFlag && newGroupHolder?.id !== record.id) {
        if (newGroupHolder) await this.repo.clearFlag(accountId, flag.property, this.group(record));
        (record as Record<string, unknown>)[flag.property] = true;
      }
      const after = this.definition.present(record);
      const changed = Object.keys(before).filter(
        (k) => k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
      );
      if (changed.length === 0) return before;
      const resource = this.definition.present(await this.repo.save(record));
      const previous = Object.fromEntries(changed.map((k) => [k, before[k]]));
      const onlyFlag = changed.length === 1 && changed[0] === flag.field;
      if (!onlyFlag || !events.flagChanged) await this.events.publish(events.updated, resource, previous);
      if (changed.includes(flag.field) && events.flagChanged)
        await this.events.publish(events.flagChanged, resource, { [flag.field]: before[flag.field] });
      for (const promoted of promotions) await this.publishPromotion(promoted);
      return resource;
    });
  }

  /** Removes the record; when it held the flag, the newest other record of its group takes it. */
  async delete(accountId: string, id: string): Promise<{ id: string; object: string; deleted: true }> {
    return this.tx.run(async () => {
      await this.lockActiveAccount(accountId, 'removing its records');
      const record = await this.repo.getOfAccount(accountId, id, true);
      const resource = this.definition.present(record);
      await this.repo.delete(record);
      await this.events.publish(this.definition.events.deleted, resource);
      if (record[this.definition.flag.property] === true) {
        const promoted = await this.promoteNewest(accountId, this.group(record), record.id);
        if (promoted) await this.publishPromotion(promoted);
      }
      return { id, object: this.definition.object, deleted: true as const };
    });
  }

  /** Moves every record to another account (merge); groups left without a flag holder take the newest record. */
  async moveAll(fromAccountId: string, toAccountId: string): Promise<void> {
    await this.repo.moveAll(fromAccountId, toAccountId, this.definition.flag.property);
    await this.repairFlags(toAccountId);
  }

  /** Gives the flag to the newest record of each group that has none. */
  private async repairFlags(accountId: string): Promise<void> {
    const records = await this.repo.allOfAccount(accountId);
    const groups = new Map<string, Record<string, unknown>>();
    for (const r of records) groups.set(JSON.stringify(this.group(r)), this.group(r));
    for (const group of groups.values()) {
      const holder = await this.repo.newestOfAccount(accountId, {
        ...group,
        [this.definition.flag.property]: true,
      });
      if (!holder) await this.promoteNewest(accountId, group);
    }
  }

  private async promoteNewest(
    accountId: string,
    group: Record<string, unknown>,
    excludeId?: string,
  ): Promise<E | null> {
    const candidates = (await this.repo.allOfAccount(accountId)).filter(
      (r) => r.id !== excludeId && JSON.stringify(this.group(r)) === JSON.stringify(group),
    );
    const newest = candidates.at(-1);
    if (!newest) return null;
    (newest as Record<string, unknown>)[this.definition.flag.property] = true;
    return this.repo.save(newest);
  }

  private async publishPromotion(record: E): Promise<void> {
    const { events, flag } = this.definition;
    await this.events.publish(events.flagChanged ?? events.updated, this.definition.present(record), {
      [flag.field]: false,
    });
  }

  private group(record: E): Record<string, unknown> {
    const key = this.definition.groupBy;
    return key ? { [key]: record[key] } : {};
  }

  private async lockActiveAccount(accountId: string, action: string): Promise<void> {
    const account = await this.accounts.getForUpdate(accountId);
    assertActive(account, action);
  }
}
