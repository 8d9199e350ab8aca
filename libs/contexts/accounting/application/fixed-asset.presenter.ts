import { toJsonNumber } from '#platform/domain/money';
import { maxRecoverable, netBookValue } from '../domain/fixed-asset';
import { FixedAssetEventRecord, FixedAssetRecord } from '../infrastructure/accounting.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toFixedAsset = (a: FixedAssetRecord) => ({
  id: a.id,
  object: 'fixed_asset' as const,
  name: a.name,
  cost: toJsonNumber(a.cost),
  acquisition_date: a.acquisitionDate,
  useful_life_months: a.usefulLifeMonths,
  salvage_value: toJsonNumber(a.salvageValue),
  depreciation_method: a.depreciationMethod,
  asset_account_id: a.assetAccountId,
  depreciation_account_id: a.depreciationAccountId,
  expense_account_id: a.expenseAccountId,
  accumulated_depreciation: toJsonNumber(a.accumulatedDepreciation),
  months_depreciated: a.monthsDepreciated,
  depreciated_through: a.depreciatedThrough,
  total_impaired: toJsonNumber(a.totalImpaired),
  total_recovered: toJsonNumber(a.totalRecovered),
  revaluation_total: toJsonNumber(a.revaluationTotal),
  max_recoverable: toJsonNumber(maxRecoverable(a)),
  net_book_value: toJsonNumber(netBookValue(a)),
  ...resourceTimestamps(a),
});

export const toAssetEvent = (e: FixedAssetEventRecord) => ({
  id: e.id,
  object: 'fixed_asset_event' as const,
  fixed_asset_id: e.fixedAssetId,
  event_type: e.eventType,
  event_date: e.eventDate,
  amount: toJsonNumber(e.amount),
  previous_net_book_value: toJsonNumber(e.previousNetBookValue),
  new_net_book_value: toJsonNumber(e.newNetBookValue),
  fair_value_at_event: toJsonNumber(e.fairValueAtEvent),
  reason: e.reason,
  journal_entry_id: e.journalEntryId,
  created_by_name: e.createdByName,
  created_at: e.createdAt.toISOString(),
});
