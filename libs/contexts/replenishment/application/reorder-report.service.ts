import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ProductFactsService } from '#contexts/catalog';
import { assertOneCursor, DEFAULT_LIMIT } from '#platform/http/list/paginate';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { demandBasis, totalDemand } from '../domain/demand';
import { planReorder, VendorTerms } from '../domain/reorder-row';
import { DEFAULT_DEMAND_WINDOW, DemandWindow, rate } from '../domain/run-rates';
import { ProductVendorRecord } from '../infrastructure/product-vendor.entity';
import { ProductVendorRepository } from '../infrastructure/product-vendor.repository';
import { BALANCE_SOURCE, BalanceSnapshot, BalanceSource } from './balance-source.port';
import { DemandService } from './demand.service';

export interface ReorderReportQuery extends ListQueryDto {
  demand_window?: DemandWindow;
  location_id?: string;
  vendor_account_id?: string;
  only_below_reorder_point?: boolean;
}

export interface ReorderReportRow {
  id: string;
  object: 'reorder_report_row';
  balance_id: string;
  product_id: string;
  variant_id: string | null;
  location_id: string;
  sku: string | null;
  unit: string | null;
  demand_window: DemandWindow;
  daily_demand: number;
  demand_basis: string;
  on_hand: number;
  allocated: number;
  on_order: number;
  available: number;
  reorder_point: number;
  reorder_point_source: 'manual' | 'computed';
  reorder_point_inputs: { lead_time_days: number; daily_demand: number; safety_stock: number } | null;
  lead_time_days: number;
  vendor_account_id: string | null;
  product_vendor_id: string | null;
  min_order_quantity: number | null;
  order_multiple: number | null;
  cover_through: string | null;
  net_suggested_qty: number;
  below_reorder_point: boolean;
}

/** Scanning batch when rows are filtered after planning (only_below_reorder_point). */
const BATCH = 200;

const termsOf = (v: ProductVendorRecord): VendorTerms => ({
  productVendorId: v.id,
  vendorAccountId: v.vendorAccountId,
  leadTimeDays: v.leadTimeDays,
  minOrderQuantity: v.minOrderQuantity,
  orderMultiple: v.orderMultiple,
});

/** GET /purchasing/reorder-report: one planned row per stock balance (product and location). */
@Injectable()
export class ReorderReportService {
  constructor(
    @Inject(BALANCE_SOURCE) private readonly balances: BalanceSource,
    private readonly vendors: ProductVendorRepository,
    private readonly demand: DemandService,
    private readonly products: ProductFactsService,
  ) {}

  async report(query: ReorderReportQuery, url: string) {
    assertOneCursor(query);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const window = query.demand_window ?? DEFAULT_DEMAND_WINDOW;
    const businessDay = await this.demand.businessDay();
    let productIds: string[] | undefined;
    if (query.vendor_account_id) productIds = await this.vendors.productsOfAccount(query.vendor_account_id);

    const backwards = Boolean(query.ending_before);
    const collected: ReorderReportRow[] = [];
    let cursor = backwards ? query.ending_before : query.starting_after;
    let more = true;
    let hasMore = false;
    while (more) {
      const want = query.only_below_reorder_point ? Math.max(BATCH, limit + 1) : limit + 1;
      const page = await this.balances.page({
        locationId: query.location_id,
        productIds,
        startingAfter: backwards ? undefined : cursor,
        endingBefore: backwards ? cursor : undefined,
        limit: want,
      });
      // Pages come newest first; walking backwards, the rows nearest the cursor are last.
      const ordered = backwards ? [...page.rows].reverse() : page.rows;
      const planned = await this.plan(ordered, window, businessDay, query.vendor_account_id);
      for (const row of planned) {
        if (query.only_below_reorder_point && !row.below_reorder_point) continue;
        if (collected.length === limit) {
          hasMore = true;
          break;
        }
        collected.push(row);
      }
      if (hasMore || !page.has_more || ordered.length === 0) {
        more = false;
        if (!hasMore && page.has_more) hasMore = true;
      } else {
        cursor = ordered[ordered.length - 1].id;
      }
      if (!query.only_below_reorder_point) more = false;
    }
    if (backwards) collected.reverse();
    return { object: 'list' as const, data: collected, has_more: hasMore, url };
  }

  private async plan(
    rows: readonly BalanceSnapshot[],
    window: DemandWindow,
    businessDay: string,
    vendorAccountId: string | undefined,
  ): Promise<ReorderReportRow[]> {
    if (rows.length === 0) return [];
    const productIds = [...new Set(rows.map((r) => r.productId))];
    const sums = await this.demand.windowSums(
      rows.map((r) => ({ productId: r.productId, locationId: r.locationId })),
      businessDay,
    );
    const vendorRows = await this.vendors.forProducts(productIds, vendorAccountId);
    const facts = await this.products.factsOf(productIds);
    return rows.map((b, i) => {
      const windowSums = sums[i][window];
      const dailyDemand: Decimal = rate(totalDemand(windowSums), window);
      const vendor = vendorRows.get(b.productId) ?? null;
      const plan = planReorder({
        balance: b,
        dailyDemand,
        demandBasis: demandBasis(windowSums),
        vendor: vendor ? termsOf(vendor) : null,
        businessDay,
      });
      const product = facts.get(b.productId);
      return {
        id: b.id,
        object: 'reorder_report_row' as const,
        balance_id: b.id,
        product_id: b.productId,
        variant_id: b.variantId,
        location_id: b.locationId,
        sku: product?.sku ?? null,
        unit: product?.unitOfMeasure ?? null,
        demand_window: window,
        daily_demand: Number(plan.dailyDemand.toFixed(4)),
        demand_basis: plan.demandBasis,
        on_hand: b.onHand,
        allocated: b.allocated,
        on_order: b.onOrder,
        available: plan.available,
        reorder_point: plan.reorderPoint,
        reorder_point_source: plan.reorderPointSource,
        reorder_point_inputs:
          plan.reorderPointSource === 'computed'
            ? {
                lead_time_days: plan.leadTimeDays,
                daily_demand: Number(plan.dailyDemand.toFixed(4)),
                safety_stock: plan.safetyStock,
              }
            : null,
        lead_time_days: plan.leadTimeDays,
        vendor_account_id: vendor?.vendorAccountId ?? null,
        product_vendor_id: vendor?.id ?? null,
        min_order_quantity: vendor?.minOrderQuantity ?? null,
        order_multiple: vendor?.orderMultiple ?? null,
        cover_through: plan.coverThrough,
        net_suggested_qty: plan.netSuggestedQty,
        below_reorder_point: plan.belowReorderPoint,
      };
    });
  }
}
