import { mergeMetadata } from '#platform/domain/metadata';
import { assertActive, normalizeCountry } from '../domain/account';
import { SalesError } from '../domain/sales-error';
import {
  AccountAddressRecord,
  AccountContactRecord,
  PaymentMethodRecord,
} from '../infrastructure/account.entity';
import { AccountChildRecord } from '../infrastructure/account.entity';
import { AccountChildRepository } from '../infrastructure/account-child.repository';
import { AccountRepository } from '../infrastructure/account.repository';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { toAddressResource } from './account-address.presenter';
import { toContactResource } from './account-contact.presenter';
import { toPaymentMethodResource } from './payment-method.presenter';
import {
  DefinedResourceService,
  ResourceDefinition,
} from '#platform/reference-lists/defined-resource.service';

type Input = Record<string, unknown>;

/**
 * What distinguishes addresses, contacts and payment methods: each hangs off an account and
 * has one flag (`is_default` / `is_primary`) held by exactly one record per group whenever
 * the group has records (per address type; per account otherwise).
 */
export type AccountChildDefinition<E extends AccountChildRecord> = ResourceDefinition<E> &
  Required<Pick<ResourceDefinition<E>, 'flag'>>;

/** Create, list, retrieve, update and remove of one kind of account child (the defined-resource engine over an account's records). */
export type AccountChildService<E extends AccountChildRecord> = DefinedResourceService<
  E,
  [accountId: string]
>;

/** The operations the HTTP layer uses (their signatures do not depend on the record type). */
export type AccountChildOperations = Pick<
  AccountChildService<AccountChildRecord>,
  'create' | 'list' | 'retrieve' | 'update' | 'delete'
>;

/** The service of one kind of account child. */
export function accountChildService<E extends AccountChildRecord>(
  definition: AccountChildDefinition<E>,
  repo: AccountChildRepository<E>,
  accounts: AccountRepository,
  tx: TransactionHost,
  events: EventPublisher,
): AccountChildService<E> {
  return new DefinedResourceService<E, [accountId: string]>(
    definition,
    {
      kind: 'owned',
      repo,
      ownerProperty: 'accountId',
      // Reads need the account to exist; changes lock it and need it active.
      owners: {
        find: (accountId) => accounts.getById(accountId),
        lockForChange: async (accountId, action) =>
          assertActive(await accounts.getForUpdate(accountId), action),
      },
    },
    tx,
    events,
  );
}

/** Copies present snake_case request fields onto record properties. */
function copy<E>(record: E, input: Input, fields: Record<string, keyof E>): void {
  for (const [field, property] of Object.entries(fields)) {
    if (input[field] !== undefined) (record as Record<keyof E, unknown>)[property] = input[field];
  }
}

/** Nullable fields absent on create are stored as null. */
function nullsFor<E>(record: E, properties: (keyof E)[]): void {
  for (const p of properties) if (record[p] === undefined) (record as Record<keyof E, unknown>)[p] = null;
}

export const ADDRESSES: AccountChildDefinition<AccountAddressRecord> = {
  object: 'account_address',
  label: 'address',
  flag: { property: 'isDefault', field: 'is_default' },
  groupBy: 'type',
  nullable: ['line2', 'region', 'postal_code'],
  events: {
    created: 'account.address.added',
    updated: 'account.address.updated',
    deleted: 'account.address.removed',
  },
  assign(record, input) {
    copy(record, input, {
      type: 'type',
      line1: 'line1',
      line2: 'line2',
      city: 'city',
      region: 'region',
      postal_code: 'postalCode',
    });
    if (typeof input.country === 'string') record.country = normalizeCountry(input.country);
    nullsFor(record, ['line2', 'region', 'postalCode']);
  },
  present: toAddressResource,
};

export const CONTACTS: AccountChildDefinition<AccountContactRecord> = {
  object: 'account_contact',
  label: 'contact',
  flag: { property: 'isPrimary', field: 'is_primary' },
  nullable: ['email', 'phone', 'role'],
  events: {
    created: 'account.contact.added',
    updated: 'account.contact.updated',
    deleted: 'account.contact.removed',
  },
  assign(record, input) {
    copy(record, input, { name: 'name', email: 'email', phone: 'phone', role: 'role' });
    if (typeof record.email === 'string') record.email = record.email.toLowerCase();
    nullsFor(record, ['email', 'phone', 'role']);
  },
  present: toContactResource,
};

interface CardInput {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** A card whose expiry month has passed cannot be added. */
function assertNotExpired(card: CardInput, now = new Date()): void {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (card.exp_year * 12 + (card.exp_month - 1) < current) {
    throw new SalesError('parameter_invalid', { param: 'card.exp_year', hint: 'The card has expired.' });
  }
}

/**
 * Payment methods hold no secrets: a card is stored as brand, last4 and expiry (what a
 * processor's token reveals), a bank account as bank name and last4.
 */
export const PAYMENT_METHODS: AccountChildDefinition<PaymentMethodRecord> = {
  object: 'payment_method',
  label: 'payment method',
  flag: { property: 'isDefault', field: 'is_default' },
  nullable: [],
  events: {
    created: 'payment.method.created',
    updated: 'payment.method.updated',
    deleted: 'payment.method.deleted',
    flagChanged: 'payment.method.default_changed',
  },
  assign(record, input, creating) {
    if (creating) {
      const type = input.type as string;
      record.type = type;
      const card = input.card as CardInput | undefined;
      const bank = input.bank_account as { bank_name?: string | null; last4: string } | undefined;
      if (type === 'card' && !card)
        throw new SalesError('parameter_missing', {
          param: 'card',
          hint: 'A card payment method needs card.',
        });
      if (type === 'bank_account' && !bank) {
        throw new SalesError('parameter_missing', {
          param: 'bank_account',
          hint: 'A bank_account payment method needs bank_account.',
        });
      }
      if (type !== 'card' && card)
        throw new SalesError('parameter_invalid', {
          param: 'card',
          hint: `card is only accepted with type 'card'.`,
        });
      if (type !== 'bank_account' && bank) {
        throw new SalesError('parameter_invalid', {
          param: 'bank_account',
          hint: `bank_account is only accepted with type 'bank_account'.`,
        });
      }
      if (card) {
        assertNotExpired(card);
        Object.assign(record, {
          cardBrand: card.brand,
          cardLast4: card.last4,
          cardExpMonth: card.exp_month,
          cardExpYear: card.exp_year,
        });
      }
      if (bank) Object.assign(record, { bankName: bank.bank_name ?? null, bankLast4: bank.last4 });
      copy(record, input, { description: 'description', billing_name: 'billingName' });
      record.metadata = mergeMetadata({}, (input.metadata as Input | undefined) ?? {});
      nullsFor(record, [
        'cardBrand',
        'cardLast4',
        'cardExpMonth',
        'cardExpYear',
        'bankName',
        'bankLast4',
        'description',
        'billingName',
      ]);
    }
  },
  present: toPaymentMethodResource,
};
