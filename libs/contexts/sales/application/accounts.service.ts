import { previousAttributes } from '#platform/events/previous-attributes';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { TagRef, TagsService } from '#contexts/catalog';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { DomainError, notFound } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { mergeMetadata } from '#platform/domain/metadata';
import { assertActive, normalizeCurrency, PostalAddress } from '../domain/account';
import { refuseNulls } from '#platform/reference-lists/resource-errors';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import {
  AccountAddressRecord,
  AccountContactRecord,
  AccountRecord,
  PaymentMethodRecord,
} from '../infrastructure/account.entity';
import { AccountRepository } from '../infrastructure/account.repository';
import { AddressRepository } from '../infrastructure/address.repository';
import { ContactRepository } from '../infrastructure/contact.repository';
import { CustomerCreditRepository } from '../infrastructure/customer-credit.repository';
import { PaymentMethodRepository } from '../infrastructure/payment-method.repository';
import { PricingPolicyRepository } from '../infrastructure/pricing-policy.repository';
import { AccountResource, toAccountResource } from './account.presenter';
import {
  AccountChildService,
  accountChildService,
  ADDRESSES,
  CONTACTS,
  PAYMENT_METHODS,
} from './account-children';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { PAYMENT_TERMS_SERVICE } from './tokens';

export interface AccountInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  currency?: string;
  credit_limit?: number | null;
  payment_terms_id?: string | null;
  tax_id?: string | null;
  metadata?: Record<string, unknown>;
}

/** The body of a merge: the account merged into the target. */
export interface AccountMerge {
  source_account_id: string;
}

export interface AccountListQuery extends ListQueryDto {
  include_deleted?: boolean;
  email?: string;
}

/** An active account record before the input's fields are applied to it. */
function newAccountRecord(): AccountRecord {
  return {
    status: 'active',
    mergedIntoId: null,
    deletedAt: null,
    metadata: {},
    creditBalance: money(0),
  } as unknown as AccountRecord;
}

/** The fields expand[] follows on account (declared when the module loads, for the OpenAPI description). */
const ACCOUNT_EXPANSIONS = expandableFields('account', {
  payment_terms: {
    kind: 'reference',
    source: 'payment_terms_id',
    target: 'payment_terms',
    resource: 'payment_term',
  },
});

/** The fields expand[] follows on an account's addresses, contacts and payment methods. */
const ACCOUNT_CHILD_EXPANSIONS = references({ account: 'account' });
for (const child of ['account_address', 'account_contact', 'payment_method']) {
  expandableFields(child, ACCOUNT_CHILD_EXPANSIONS);
}

/** Customer accounts: create, update, soft delete, merge; the entry point other contexts use to read accounts. */
@Injectable()
export class AccountsService implements OnModuleInit {
  readonly addresses: AccountChildService<AccountAddressRecord>;
  readonly contacts: AccountChildService<AccountContactRecord>;
  readonly paymentMethods: AccountChildService<PaymentMethodRecord>;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly addressRepo: AddressRepository,
    contactRepo: ContactRepository,
    paymentMethodRepo: PaymentMethodRepository,
    private readonly policies: PricingPolicyRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    @Inject(PAYMENT_TERMS_SERVICE) private readonly paymentTerms: ReferenceListService,
    private readonly tags: TagsService,
    private readonly profiles: EntityProfiles,
    private readonly credits: CustomerCreditRepository,
  ) {
    this.addresses = accountChildService(ADDRESSES, addressRepo, accounts, tx, events);
    this.contacts = accountChildService(CONTACTS, contactRepo, accounts, tx, events);
    this.paymentMethods = accountChildService(PAYMENT_METHODS, paymentMethodRepo, accounts, tx, events);
  }

  onModuleInit(): void {
    this.resources.register({
      name: 'account',
      fields: ACCOUNT_EXPANSIONS,
      load: (ids) => this.accounts.presentByIds(ids, (rows) => this.present(rows)),
    });
    const children = {
      account_address: this.addresses,
      account_contact: this.contacts,
      payment_method: this.paymentMethods,
    };
    for (const [name, service] of Object.entries(children)) {
      this.resources.register({ name, fields: ACCOUNT_CHILD_EXPANSIONS, load: (ids) => service.load(ids) });
    }
  }

  /** Accounts of the caller's entity and mode by id (deleted ones included); unknown ids are absent. */
  async getAccounts(ids: readonly string[]): Promise<AccountResource[]> {
    return this.present(await this.accounts.findByIds(ids));
  }

  /** Serializes accounts with their tag ids (one query for the batch). */
  private async present(rows: AccountRecord[]): Promise<AccountResource[]> {
    const tagIds = await this.tags.tagIdsOf(
      'account',
      rows.map((r) => r.id),
    );
    return rows.map((r) => toAccountResource(r, tagIds.get(r.id) ?? []));
  }

  private async presentOne(row: AccountRecord): Promise<AccountResource> {
    return (await this.present([row]))[0];
  }

  /** For the customer credit service: an account record as the API shows it. */
  presentRecord(row: AccountRecord): Promise<AccountResource> {
    return this.presentOne(row);
  }

  /** Attaches a tag (idempotent); emits account.updated with the previous tag_ids when newly attached. */
  async addTag(accountId: string, { tag_id: tagId }: TagRef): Promise<AccountResource> {
    return this.tx.run(async () => {
      const record = await this.accounts.getForUpdate(accountId);
      assertActive(record, 'tagging');
      const before = await this.presentOne(record);
      const added = await this.tags.attach('account', record.id, tagId);
      const resource = await this.presentOne(record);
      if (added) await this.events.publish('account.updated', resource, { tag_ids: before.tag_ids });
      return resource;
    });
  }

  /** Detaches a tag; 404 when it was not attached. */
  async removeTag(accountId: string, tagId: string): Promise<AccountResource> {
    return this.tx.run(async () => {
      const record = await this.accounts.getForUpdate(accountId);
      assertActive(record, 'untagging');
      const before = await this.presentOne(record);
      if (!(await this.tags.detach('account', record.id, tagId))) {
        throw new SalesError('not_found', {
          hint: `Tag '${tagId}' is not attached to account '${record.id}'.`,
        });
      }
      const resource = await this.presentOne(record);
      await this.events.publish('account.updated', resource, { tag_ids: before.tag_ids });
      return resource;
    });
  }

  async create(input: AccountInput): Promise<AccountResource> {
    return this.tx.run(async () => {
      const record = newAccountRecord();
      await this.apply(record, { ...input, currency: input.currency ?? (await this.baseCurrency()) });
      const resource = await this.presentOne(await this.accounts.create(record));
      await this.events.publish('account.created', resource);
      return resource;
    });
  }

  /**
   * Creates several accounts at once (bulk imports): each input goes through the same rules as
   * create() and gets its own account.created event, but the accounts are written with one
   * multi-row INSERT and the events with another, in one transaction. An input that breaks a
   * rule is returned as its DomainError (nothing written for it); the others land.
   */
  async createMany(inputs: readonly AccountInput[]): Promise<(AccountResource | DomainError)[]> {
    return this.tx.run(async () => {
      const currency = inputs.some((i) => i.currency === undefined) ? await this.baseCurrency() : undefined;
      const termIds = [
        ...new Set(
          inputs.map((i) => i.payment_terms_id).filter((id): id is string => typeof id === 'string'),
        ),
      ];
      const knownTerms = new Set<string>();
      for (const id of termIds) if (await this.paymentTerms.exists(id)) knownTerms.add(id);
      const results: (AccountResource | DomainError)[] = new Array(inputs.length);
      const pending: { index: number; record: AccountRecord }[] = [];
      for (const [index, input] of inputs.entries()) {
        const record = newAccountRecord();
        try {
          await this.apply(record, { ...input, currency: input.currency ?? currency }, async (id) =>
            knownTerms.has(id),
          );
          pending.push({ index, record });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          results[index] = error;
        }
      }
      const created = await this.accounts.createMany(pending.map((p) => p.record));
      const resources = created.map((record) => toAccountResource(record, []));
      pending.forEach((p, i) => (results[p.index] = resources[i]));
      await this.events.publishMany(resources.map((object) => ({ type: 'account.created', object })));
      return results;
    });
  }

  async list(query: AccountListQuery, url: string): Promise<ListPage<AccountResource>> {
    const page = await this.accounts.list(query, url);
    return listEnvelope(await this.present(page.rows), page, url);
  }

  /** Whom a document is addressed to: the account's name and email, in one read. */
  async contact(id: string): Promise<{ name: string; email: string | null }> {
    const account = await this.accounts.getById(id);
    return { name: account.name, email: account.email };
  }

  /**
   * Who the account's goods go to: its name and email (contact()) with its shipping address
   * (shippingAddress()), read by one statement; 404 when absent.
   */
  async recipient(
    id: string,
  ): Promise<{ name: string; email: string | null; shippingAddress: PostalAddress | null }> {
    const row = await this.accounts.recipient(id);
    if (!row) throw notFound('account', id);
    return { name: row.name, email: row.email, shippingAddress: row.shipping_address };
  }

  /**
   * Where the account's goods go: its default shipping address (the newest shipping address
   * when none is flagged), or null when it has none.
   */
  async shippingAddress(id: string): Promise<PostalAddress | null> {
    const shipping = (await this.addressRepo.allOfOwner(id)).filter((a) => a.type === 'shipping');
    const chosen = shipping.find((a) => a.isDefault) ?? shipping.at(-1);
    if (!chosen) return null;
    const { line1, line2, city, region, postalCode, country } = chosen;
    return { line1, line2, city, region, postal_code: postalCode, country };
  }

  /** Deleted (and merged) accounts stay retrievable with `status: "deleted"` and `deleted: true`. */
  async retrieve(id: string): Promise<AccountResource> {
    return this.presentOne(await this.accounts.getById(id));
  }

  async update(id: string, input: AccountInput): Promise<AccountResource> {
    refuseNulls(input as Record<string, unknown>, [
      'email',
      'phone',
      'credit_limit',
      'payment_terms_id',
      'tax_id',
    ]);
    return this.tx.run(async () => {
      const record = await this.accounts.getForUpdate(id);
      assertActive(record, 'updating');
      const before = await this.presentOne(record);
      const heldIn = record.currency;
      await this.apply(record, input);
      if (record.currency !== heldIn && !record.creditBalance.isZero())
        throw new SalesError('invalid_state', {
          param: 'currency',
          hint: `Account '${record.id}' holds ${record.creditBalance.toFixed(2)} ${heldIn} of customer credit; its currency cannot change while it does.`,
        });
      const previous = previousAttributes(before, toAccountResource(record, before.tag_ids));
      const changed = Object.keys(previous);
      if (changed.length === 0) return before;
      const resource = await this.presentOne(await this.accounts.save(record));
      await this.events.publish('account.updated', resource, previous);
      if (changed.includes('credit_limit'))
        await this.events.publish('account.credit_limit.updated', resource, {
          credit_limit: before.credit_limit,
        });
      if (changed.includes('payment_terms_id')) {
        await this.events.publish('account.terms.updated', resource, {
          payment_terms_id: before.payment_terms_id,
        });
      }
      return resource;
    });
  }

  /** Soft delete: the account keeps its data, leaves the default lists and refuses changes. */
  async delete(id: string): Promise<{ id: string; object: 'account'; deleted: true }> {
    return this.tx.run(async () => {
      const record = await this.accounts.getForUpdate(id);
      assertActive(record, 'deleting');
      record.status = 'deleted';
      record.deletedAt = new Date();
      await this.events.publish('account.deleted', await this.presentOne(await this.accounts.save(record)));
      return { id, object: 'account' as const, deleted: true as const };
    });
  }

  /**
   * Moves the source's addresses, contacts, payment methods and pricing policies to the target,
   * then soft-deletes the source with `merged_into_id`. The target keeps its own defaults; a
   * group the target had no default in takes the newest moved record as default.
   */
  async merge(targetId: string, { source_account_id: sourceId }: AccountMerge): Promise<AccountResource> {
    return this.tx.run(async () => {
      if (sourceId === targetId)
        throw invalidParam('source_account_id', 'An account cannot be merged into itself.');
      if (!(await this.accounts.findById(sourceId))) {
        throw new SalesError('not_found', {
          param: 'source_account_id',
          hint: `No account with id '${sourceId}' exists for this entity and mode.`,
        });
      }
      // Lock both rows in id order so two opposite merges cannot deadlock.
      const locked = new Map<string, AccountRecord>();
      for (const id of [targetId, sourceId].sort()) locked.set(id, await this.accounts.getForUpdate(id));
      const target = locked.get(targetId)!;
      const source = locked.get(sourceId)!;
      assertActive(target, 'merging into it');
      if (source.status !== 'active') {
        throw new SalesError('invalid_state', {
          param: 'source_account_id',
          hint: `Source account '${source.id}' has status '${source.status}'; only an 'active' account can be merged.`,
        });
      }
      for (const children of [this.addresses, this.contacts, this.paymentMethods])
        await children.moveAll(sourceId, targetId);
      await this.policies.reassignAccount(sourceId, targetId);
      await this.moveCredit(source, target);
      source.status = 'deleted';
      source.deletedAt = new Date();
      source.mergedIntoId = targetId;
      await this.events.publish('account.deleted', await this.presentOne(await this.accounts.save(source)));
      target.updatedAt = new Date();
      const resource = await this.presentOne(await this.accounts.save(target));
      await this.events.publish('account.merged', resource);
      return resource;
    });
  }

  /**
   * A merge moves the source's customer credit to the target: an account_merge credit
   * transaction on each (the ledger does not move: one customer-credit liability either way).
   * Both rows are locked by the caller. Credit in another currency than the target's is 409.
   */
  private async moveCredit(source: AccountRecord, target: AccountRecord): Promise<void> {
    const amount = source.creditBalance;
    if (amount.isZero()) return;
    if (source.currency !== target.currency)
      throw new SalesError('invalid_state', {
        param: 'source_account_id',
        hint: `Account '${source.id}' holds ${amount.toFixed(2)} ${source.currency} of customer credit; it cannot merge into an account in ${target.currency}.`,
      });
    source.creditBalance = money(0);
    target.creditBalance = target.creditBalance.plus(amount);
    const movement = { type: 'account_merge', currency: target.currency, orderId: null, paymentId: null };
    await this.credits.create({
      ...movement,
      accountId: source.id,
      amount: amount.negated(),
      endingBalance: source.creditBalance,
      reference: `merged into account ${target.id}`,
    });
    await this.credits.create({
      ...movement,
      accountId: target.id,
      amount,
      endingBalance: target.creditBalance,
      reference: `merged from account ${source.id}`,
    });
  }

  private async apply(
    record: AccountRecord,
    input: AccountInput,
    termsExist: (id: string) => Promise<boolean> = (id) => this.paymentTerms.exists(id),
  ): Promise<void> {
    if (input.name !== undefined) record.name = input.name.trim();
    if (input.email !== undefined) record.email = input.email === null ? null : input.email.toLowerCase();
    if (input.phone !== undefined) record.phone = input.phone;
    if (input.currency !== undefined) record.currency = normalizeCurrency(input.currency);
    if (input.credit_limit !== undefined)
      record.creditLimit = input.credit_limit === null ? null : money(input.credit_limit);
    if (input.tax_id !== undefined) record.taxId = input.tax_id;
    if (input.metadata !== undefined) record.metadata = mergeMetadata(record.metadata, input.metadata);
    if (input.payment_terms_id !== undefined) {
      if (input.payment_terms_id !== null && !(await termsExist(input.payment_terms_id))) {
        throw invalidParam(
          'payment_terms_id',
          `No payment term with id '${input.payment_terms_id}' exists for this entity and mode.`,
        );
      }
      record.paymentTermsId = input.payment_terms_id;
    }
    record.email ??= null;
    record.phone ??= null;
    record.creditLimit ??= null;
    record.taxId ??= null;
    record.paymentTermsId ??= null;
  }

  private async baseCurrency(): Promise<string> {
    const entity = await this.profiles.current();
    if (!entity) throw notFound('entity');
    return entity.baseCurrency;
  }
}
