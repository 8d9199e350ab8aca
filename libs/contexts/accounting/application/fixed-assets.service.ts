import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { newId } from '#platform/persistence/ids';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { depreciationDue, maxRecoverable, netBookValue } from '../domain/fixed-asset';
import { FixedAssetRepository } from '../infrastructure/fixed-asset.repository';
import { AccountingSettingsService } from './accounting-settings.service';
import { JournalEngine } from './journal-engine.service';
import { LedgerPostingService, PostingLine, PostingRequest } from './ledger-posting.service';
import { toAssetEvent, toFixedAsset } from './fixed-asset.presenter';
import { allRecords, ResourceReads } from '#platform/http/list/resource-reads';
import type { FixedAssetRecord } from '../infrastructure/accounting.entities';

export interface AssetInput {
  name: string;
  cost: number;
  acquisition_date: string;
  useful_life_months: number;
  salvage_value?: number;
  asset_account_id: string;
  depreciation_account_id: string;
  expense_account_id: string;
}

export interface AssetEventInput {
  amount?: number;
  fair_value?: number;
  reason?: string | null;
  event_date?: string;
}

/** Fixed assets: register, straight-line depreciation, impairment, recovery and revaluation, each posted to the ledger. */
@Injectable()
export class FixedAssetsService extends ResourceReads<
  FixedAssetRecord,
  ReturnType<typeof toFixedAsset>,
  ListQueryDto
> {
  constructor(
    private readonly tx: TransactionHost,
    private readonly assets: FixedAssetRepository,
    private readonly engine: JournalEngine,
    private readonly posting: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly events: EventPublisher,
  ) {
    super(allRecords(assets), toFixedAsset);
  }

  async create(input: AssetInput) {
    return this.tx.run(async () => {
      const cost = money(String(input.cost));
      const salvage = money(String(input.salvage_value ?? 0));
      if (salvage.greaterThanOrEqualTo(cost)) {
        throw new AccountingError('parameter_invalid', {
          param: 'salvage_value',
          hint: 'salvage_value must be below cost.',
        });
      }
      const ids = [input.asset_account_id, input.depreciation_account_id, input.expense_account_id];
      const names = ['asset_account_id', 'depreciation_account_id', 'expense_account_id'];
      // Reuses the line checks for existence and postability, naming the asset's own fields.
      for (let i = 0; i < ids.length; i++) {
        try {
          await this.engine.checkLines([
            { accountId: ids[i], debit: money(1), credit: money(0) },
            { accountId: ids[i], debit: money(0), credit: money(1) },
          ]);
        } catch (error) {
          if (error instanceof AccountingError)
            throw new AccountingError(error.code as 'parameter_invalid', {
              param: names[i],
              hint: error.hint,
            });
          throw error;
        }
      }
      const asset = await this.assets.create({
        name: input.name,
        cost,
        acquisitionDate: input.acquisition_date,
        usefulLifeMonths: input.useful_life_months,
        salvageValue: salvage,
        depreciationMethod: 'straight_line',
        assetAccountId: input.asset_account_id,
        depreciationAccountId: input.depreciation_account_id,
        expenseAccountId: input.expense_account_id,
        accumulatedDepreciation: money(0),
        monthsDepreciated: 0,
        depreciatedThrough: null,
        totalImpaired: money(0),
        totalRecovered: money(0),
        revaluationTotal: money(0),
      });
      const resource = toFixedAsset(asset);
      await this.events.publish('asset.created', resource);
      return resource;
    });
  }

  /** Posts straight-line depreciation for the whole months up to through_date not yet depreciated. */
  async depreciate(id: string, { through_date: throughDate }: { through_date: string }) {
    return this.tx.run(async () => {
      const asset = await this.assets.getForUpdate(id);
      const due = depreciationDue(asset, throughDate);
      if (due.months === 0 || due.amount.isZero()) {
        return {
          object: 'fixed_asset_depreciation' as const,
          fixed_asset: toFixedAsset(asset),
          months: 0,
          amount: 0,
          journal_entry_id: null,
        };
      }
      const run = await this.postHistoryRow('DEPRECIATION', {
        entry_date: throughDate,
        description: `Depreciation of ${asset.name} through ${throughDate}`,
        entry_type: 'depreciation',
        lines: [
          { account_id: asset.expenseAccountId, debit: due.amount },
          { account_id: asset.depreciationAccountId, credit: due.amount },
        ],
      });
      await this.assets.insertDepreciation({
        ...run,
        fixedAssetId: asset.id,
        throughDate,
        months: due.months,
        amount: due.amount,
      });
      const previous = {
        accumulated_depreciation: toJsonNumber(asset.accumulatedDepreciation),
        depreciated_through: asset.depreciatedThrough,
      };
      asset.accumulatedDepreciation = asset.accumulatedDepreciation.plus(due.amount);
      asset.monthsDepreciated += due.months;
      asset.depreciatedThrough = throughDate;
      const resource = toFixedAsset(await this.assets.save(asset));
      await this.events.publish('asset.depreciated', resource, previous);
      return {
        object: 'fixed_asset_depreciation' as const,
        fixed_asset: resource,
        months: due.months,
        amount: toJsonNumber(due.amount),
        journal_entry_id: run.journalEntryId,
      };
    });
  }

  async impair(id: string, input: AssetEventInput) {
    return this.record(id, 'impairment', input);
  }

  async recover(id: string, input: AssetEventInput) {
    return this.record(id, 'recovery', input);
  }

  async revalue(id: string, input: AssetEventInput) {
    return this.record(id, 'revaluation', input);
  }

  private async record(id: string, type: 'impairment' | 'recovery' | 'revaluation', input: AssetEventInput) {
    return this.tx.run(async () => {
      const asset = await this.assets.getForUpdate(id);
      const before = netBookValue(asset);
      const eventDate = input.event_date ?? (await this.settings.currentBusinessDay());
      let amount: Decimal;
      let lines: PostingLine[];
      if (type === 'revaluation') {
        const fair = money(String(input.fair_value));
        amount = fair.minus(before);
        if (amount.isZero())
          throw new AccountingError('parameter_invalid', {
            param: 'fair_value',
            hint: 'fair_value equals the net book value.',
          });
        lines = amount.isPositive()
          ? [
              { account_id: asset.assetAccountId, debit: amount },
              { account_id: asset.expenseAccountId, credit: amount },
            ]
          : [
              { account_id: asset.expenseAccountId, debit: amount.abs() },
              { account_id: asset.assetAccountId, credit: amount.abs() },
            ];
        asset.revaluationTotal = asset.revaluationTotal.plus(amount);
      } else {
        amount = money(String(input.amount));
        if (type === 'impairment') {
          if (amount.greaterThan(before)) {
            throw new AccountingError('amount_exceeds_limit', {
              param: 'amount',
              hint: `The impairment exceeds the net book value (${before.toFixed()}).`,
            });
          }
          lines = [
            { account_id: asset.expenseAccountId, debit: amount },
            { account_id: asset.depreciationAccountId, credit: amount },
          ];
          asset.totalImpaired = asset.totalImpaired.plus(amount);
        } else {
          const cap = maxRecoverable(asset);
          if (amount.greaterThan(cap)) {
            throw new AccountingError('amount_exceeds_limit', {
              param: 'amount',
              hint: `The recovery exceeds max_recoverable (${cap.toFixed()}): total impaired less total recovered.`,
              details: { max_recoverable: toJsonNumber(cap) },
            });
          }
          lines = [
            { account_id: asset.depreciationAccountId, debit: amount },
            { account_id: asset.expenseAccountId, credit: amount },
          ];
          asset.totalRecovered = asset.totalRecovered.plus(amount);
        }
      }
      const row = await this.postHistoryRow('IMPAIRMENT', {
        entry_date: eventDate,
        description: `${type[0].toUpperCase()}${type.slice(1)} of ${asset.name}${input.reason ? `: ${input.reason}` : ''}`,
        entry_type: type,
        lines,
      });
      const after = netBookValue(asset);
      await this.assets.insertEvent({
        ...row,
        fixedAssetId: asset.id,
        eventType: type,
        eventDate,
        amount,
        previousNetBookValue: before,
        newNetBookValue: after,
        fairValueAtEvent: input.fair_value === undefined ? null : money(String(input.fair_value)),
        reason: input.reason ?? null,
        createdByName: await this.engine.keyName(),
      });
      const resource = toFixedAsset(await this.assets.save(asset));
      const eventType = {
        impairment: 'asset.impaired',
        recovery: 'asset.recovered',
        revaluation: 'asset.revalued',
      }[type];
      await this.events.publish(eventType, resource, { net_book_value: toJsonNumber(before) });
      const stored = await this.assets.eventById(row.id);
      return toAssetEvent(stored);
    });
  }

  /**
   * Posts the journal entry of a new row of an asset's history (a depreciation run or an event),
   * the row being its source; returns the row's id, its entry and the caller's entity and mode.
   */
  private async postHistoryRow(
    sourceType: 'DEPRECIATION' | 'IMPAIRMENT',
    posting: Pick<PostingRequest, 'entry_date' | 'description' | 'entry_type' | 'lines'>,
  ) {
    const id = newId();
    const entry = await this.posting.post({
      source_type: sourceType,
      source_id: id,
      source_module: 'accounting',
      ...posting,
    });
    const { entityId, livemode } = RequestContext.caller();
    return { id, entityId, livemode, journalEntryId: entry.id };
  }

  /** Impairment history: events newest first (event_date, then created_at), their count and the impairment summary. */
  async impairmentHistory(id: string) {
    const asset = await this.assets.getById(id);
    const events = await this.assets.eventsOf(asset);
    return {
      object: 'impairment_history' as const,
      fixed_asset_id: asset.id,
      data: events.map(toAssetEvent),
      total: events.length,
      summary: {
        total_impaired: toJsonNumber(asset.totalImpaired),
        total_recovered: toJsonNumber(asset.totalRecovered),
        net_impaired: toJsonNumber(asset.totalImpaired.minus(asset.totalRecovered)),
        max_recoverable: toJsonNumber(maxRecoverable(asset)),
      },
    };
  }
}
