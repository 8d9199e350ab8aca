import { previousAttributes } from '#platform/events/previous-attributes';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountingError } from '../domain/accounting-error';
import { AccountType, normalBalanceOf, NormalBalance } from '../domain/ledger';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';
import { toLedgerAccount } from './ledger-account.presenter';

export interface AccountInput {
  code: string;
  name: string;
  type: AccountType;
  normal_balance?: NormalBalance;
  postable?: boolean;
  parent_id?: string | null;
  control_role?: string | null;
  description?: string | null;
  active?: boolean;
  is_bank?: boolean;
}

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === constraint;

/** Only asset accounts can be bank accounts. */
function checkBankFlag(isBank: boolean, type: string): void {
  if (isBank && type !== 'asset') {
    throw new AccountingError('parameter_invalid', {
      param: 'is_bank',
      hint: `Only asset accounts can be bank accounts; this one is '${type}'.`,
    });
  }
}

/** The fields expand[] follows on ledger_account (declared when the module loads, for the OpenAPI description). */
const LEDGER_ACCOUNT_EXPANSIONS = expandableFields(
  'ledger_account',
  references({ parent: 'ledger_account' }),
);

/** The chart of accounts: ledger accounts and their control roles. */
@Injectable()
export class LedgerAccountsService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionHost,
    private readonly accounts: LedgerAccountRepository,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords(
      'ledger_account',
      this.accounts,
      toLedgerAccount,
      LEDGER_ACCOUNT_EXPANSIONS,
    );
  }

  private async checkParent(parentId: string | null | undefined, selfId?: string): Promise<void> {
    if (!parentId) return;
    const parent = await this.accounts.findById(parentId);
    if (!parent || parent.id === selfId) {
      throw new AccountingError('parameter_invalid', {
        param: 'parent_id',
        hint: `No other ledger account with id '${parentId}' exists.`,
      });
    }
  }

  /** Unique code and control role per entity and mode become 409 resource_conflict. */
  private async saving<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error, 'ledger_accounts_code')) {
        throw new AccountingError('resource_conflict', {
          param: 'code',
          hint: 'Another ledger account already has this code.',
        });
      }
      if (isUniqueViolation(error, 'ledger_accounts_role')) {
        throw new AccountingError('resource_conflict', {
          param: 'control_role',
          hint: 'Another ledger account already holds this control role.',
        });
      }
      throw error;
    }
  }

  async create(input: AccountInput) {
    return this.saving(() =>
      this.tx.run(async () => {
        await this.checkParent(input.parent_id);
        checkBankFlag(input.is_bank ?? false, input.type);
        const account = await this.accounts.create({
          code: input.code,
          name: input.name,
          type: input.type,
          normalBalance: input.normal_balance ?? normalBalanceOf(input.type),
          postable: input.postable ?? true,
          parentId: input.parent_id ?? null,
          controlRole: input.control_role ?? null,
          description: input.description ?? null,
          active: input.active ?? true,
          isBank: input.is_bank ?? false,
        });
        const resource = toLedgerAccount(account);
        await this.events.publish('accounting.ledger_account.created', resource);
        return resource;
      }),
    );
  }

  async list(
    query: ListQueryDto & { type?: string; control_role?: string; postable?: boolean },
    url: string,
  ) {
    const page = await this.accounts.pageFiltered(query, url);
    return listEnvelope(page.rows.map(toLedgerAccount), page, url);
  }

  async retrieve(id: string) {
    return toLedgerAccount(await this.accounts.getById(id));
  }

  async update(id: string, changes: Partial<AccountInput>) {
    return this.saving(() =>
      this.tx.run(async () => {
        const account = await this.accounts.getForUpdate(id);
        const before = toLedgerAccount(account);
        if (changes.parent_id !== undefined) await this.checkParent(changes.parent_id, account.id);
        if (changes.code !== undefined) account.code = changes.code;
        if (changes.name !== undefined) account.name = changes.name;
        if (changes.type !== undefined) {
          account.type = changes.type;
          if (changes.normal_balance === undefined) account.normalBalance = normalBalanceOf(changes.type);
        }
        if (changes.normal_balance !== undefined) account.normalBalance = changes.normal_balance;
        if (changes.postable !== undefined) account.postable = changes.postable;
        if (changes.parent_id !== undefined) account.parentId = changes.parent_id;
        if (changes.control_role !== undefined) account.controlRole = changes.control_role;
        if (changes.description !== undefined) account.description = changes.description;
        if (changes.active !== undefined) account.active = changes.active;
        if (changes.is_bank !== undefined) account.isBank = changes.is_bank;
        checkBankFlag(account.isBank, account.type);
        const previous = previousAttributes(before, toLedgerAccount(account));
        if (Object.keys(previous).length === 0) return before;
        const resource = toLedgerAccount(await this.accounts.save(account));
        await this.events.publish('accounting.ledger_account.updated', resource, previous);
        return resource;
      }),
    );
  }
}
