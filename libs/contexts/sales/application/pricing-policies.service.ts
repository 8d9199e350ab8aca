import { deleteRecord, updateRecord } from '#platform/events/record-changes';
import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { mergeMetadata } from '#platform/domain/metadata';
import {
  applyPricingPolicies,
  POLICY_DEFAULTS,
  PricedLine,
  PricingContext,
  PricingPolicyKind,
  PricingPolicyRule,
} from '../domain/pricing';
import { invalidParam } from '#platform/errors/domain-error';
import { PricingPolicyRecord } from '../infrastructure/pricing-policy.entity';
import { AccountRepository } from '../infrastructure/account.repository';
import { PricingPolicyRepository } from '../infrastructure/pricing-policy.repository';
import { ResourceReads } from '#platform/http/list/resource-reads';

export interface PricingPolicyInput {
  name?: string;
  kind?: PricingPolicyKind;
  value?: number;
  account_id?: string | null;
  product_id?: string | null;
  product_category_id?: string | null;
  priority?: number;
  active?: boolean;
  starts_at?: string | null;
  ends_at?: string | null;
  metadata?: Record<string, unknown>;
}

export interface PricingPolicyListQuery extends ListQueryDto {
  account_id?: string;
  product_id?: string;
  active?: boolean;
}

export const toPricingPolicyResource = (p: PricingPolicyRecord) => ({
  id: p.id,
  object: 'pricing_policy' as const,
  name: p.name,
  kind: p.kind,
  value: toJsonNumber(p.value),
  account_id: p.accountId,
  product_id: p.productId,
  product_category_id: p.productCategoryId,
  priority: p.priority,
  active: p.active,
  starts_at: p.startsAt ? p.startsAt.toISOString() : null,
  ends_at: p.endsAt ? p.endsAt.toISOString() : null,
  metadata: p.metadata,
  livemode: p.livemode,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});
export type PricingPolicyResource = ReturnType<typeof toPricingPolicyResource>;

const toRule = (p: PricingPolicyRecord): PricingPolicyRule => ({
  id: p.id,
  kind: p.kind as PricingPolicyKind,
  value: p.value,
  accountId: p.accountId,
  productId: p.productId,
  productCategoryId: p.productCategoryId,
  priority: p.priority,
  active: p.active,
  startsAt: p.startsAt,
  endsAt: p.endsAt,
});

/** The fields expand[] follows on pricing_policy (declared when the module loads, for the OpenAPI description). */
const PRICING_POLICY_EXPANSIONS = expandableFields('pricing_policy', references({ account: 'account' }));

/** Pricing policies and the line pricing that orders use when they copy prices at creation. */
@Injectable()
export class PricingPoliciesService
  extends ResourceReads<PricingPolicyRecord, PricingPolicyResource, PricingPolicyListQuery>
  implements OnModuleInit
{
  constructor(
    private readonly policies: PricingPolicyRepository,
    private readonly accounts: AccountRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {
    super(policies, toPricingPolicyResource);
  }

  onModuleInit(): void {
    this.resources.registerRecords(
      'pricing_policy',
      this.policies,
      toPricingPolicyResource,
      PRICING_POLICY_EXPANSIONS,
    );
  }

  /**
   * Prices one line with the caller's active policies that may match it (see applyPricingPolicies).
   * Orders call this at creation and store the result; later policy changes never touch them.
   */
  async priceLine(
    listPrice: Decimal.Value,
    quantity: Decimal.Value,
    context: PricingContext,
  ): Promise<PricedLine> {
    const candidates = await this.policies.activeCandidates(context);
    return applyPricingPolicies(listPrice, quantity, context, candidates.map(toRule));
  }

  /**
   * A pricer for lines of these accounts and products, from one read of their candidate policies:
   * it prices each such line as priceLine() would.
   */
  async pricerFor(
    accountIds: readonly string[],
    productIds: readonly string[],
  ): Promise<(listPrice: Decimal.Value, quantity: Decimal.Value, context: PricingContext) => PricedLine> {
    const rules = (await this.policies.activeCandidatesOfAny(accountIds, productIds)).map(toRule);
    return (listPrice, quantity, context) => applyPricingPolicies(listPrice, quantity, context, rules);
  }

  async create(input: PricingPolicyInput): Promise<PricingPolicyResource> {
    return this.tx.run(async () => {
      const record = { ...POLICY_DEFAULTS, metadata: {} } as unknown as PricingPolicyRecord;
      await this.apply(record, input);
      const resource = toPricingPolicyResource(await this.policies.create(record));
      await this.events.publish('product.pricing_policy.created', resource);
      return resource;
    });
  }

  async update(id: string, input: PricingPolicyInput): Promise<PricingPolicyResource> {
    return updateRecord(this.tx, this.events, this.policies, id, {
      present: toPricingPolicyResource,
      event: 'product.pricing_policy.updated',
      apply: (record) => this.apply(record, input),
    });
  }

  /** Permanent (no soft delete): later prices ignore it; orders keep the prices they copied. */
  async delete(id: string): Promise<{ id: string; object: 'pricing_policy'; deleted: true }> {
    return deleteRecord(this.tx, this.events, this.policies, id, {
      present: toPricingPolicyResource,
      event: 'product.pricing_policy.deleted',
      object: 'pricing_policy',
    });
  }

  private async apply(record: PricingPolicyRecord, input: PricingPolicyInput): Promise<void> {
    for (const key of ['name', 'kind', 'value', 'priority', 'active'] as const) {
      if (input[key] === null) throw invalidParam(key, `${key} cannot be null.`);
    }
    if (input.name !== undefined) record.name = input.name.trim();
    if (input.kind !== undefined) record.kind = input.kind;
    if (input.value !== undefined) record.value = money(input.value);
    if (input.priority !== undefined) record.priority = input.priority;
    if (input.active !== undefined) record.active = input.active;
    if (input.product_id !== undefined) record.productId = input.product_id;
    if (input.product_category_id !== undefined) record.productCategoryId = input.product_category_id;
    if (input.starts_at !== undefined)
      record.startsAt = input.starts_at === null ? null : new Date(input.starts_at);
    if (input.ends_at !== undefined) record.endsAt = input.ends_at === null ? null : new Date(input.ends_at);
    if (input.metadata !== undefined) record.metadata = mergeMetadata(record.metadata, input.metadata);
    if (input.account_id !== undefined) {
      if (input.account_id !== null) {
        const account = await this.accounts.findById(input.account_id);
        if (!account || account.status !== 'active') {
          throw invalidParam(
            'account_id',
            `No active account with id '${input.account_id}' exists for this entity and mode.`,
          );
        }
      }
      record.accountId = input.account_id;
    }
    if (record.kind === 'percentage_off' && record.value.gt(100))
      throw invalidParam('value', 'A percentage_off value is at most 100.');
    if (record.startsAt && record.endsAt && record.startsAt >= record.endsAt)
      throw invalidParam('ends_at', 'ends_at must be after starts_at.');
  }
}
