import { Inject, Injectable } from '@nestjs/common';
import { ProductsService } from '#contexts/catalog';
import {
  AdjustmentsService,
  BalancesService,
  StockHistoryService,
  LOCATIONS_SERVICE,
} from '#contexts/inventory';
import { AccountsService, SalesOrders } from '#contexts/sales';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { BuildsService } from './builds.service';
import { DemandAverageRefresher } from './demand-average-refresher.service';
import { KitComponentsService } from './kit-components.service';
import { ProductVendorsService } from './product-vendors.service';

const DAY_MS = 86_400_000;

/**
 * Shipments of the reorder product's history, more units the more recent (30 dated batches, so
 * the seed stays quick): run_rate_30 = 60/30 = 2, run_rate_90 = 120/90 = 1.3333,
 * run_rate_180 = 174/180 = 0.9667, run_rate_365 = 244/365 = 0.6685, plus two shipments more
 * than 365 days back that no window counts.
 */
export function seedHistory(): { daysAgo: number; quantity: number }[] {
  const history: { daysAgo: number; quantity: number }[] = [];
  for (let d = 0; d < 30; d += 10) history.push({ daysAgo: d, quantity: 20 });
  for (let d = 30; d < 90; d += 10) history.push({ daysAgo: d, quantity: 10 });
  for (let d = 90; d < 180; d += 10) history.push({ daysAgo: d, quantity: 6 });
  for (let d = 180; d <= 360; d += 20) history.push({ daysAgo: d, quantity: 7 });
  history.push({ daysAgo: 380, quantity: 1 }, { daysAgo: 395, quantity: 1 });
  return history;
}

/**
 * QA fixtures of replenishment (docs/reference/qa-seed.md): `kit_product_id` (a kit with two
 * components and a posted build) and `reorder_product_id` (stocked, a reorder point, a
 * preferred vendor with order_multiple, and sales history over more than 365 days).
 */
@Injectable()
export class ReplenishmentSeedContributor extends LiveSeedContributor {
  constructor(
    private readonly products: ProductsService,
    private readonly accounts: AccountsService,
    private readonly orders: SalesOrders,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
    private readonly adjustments: AdjustmentsService,
    private readonly balances: BalancesService,
    private readonly history: StockHistoryService,
    private readonly components: KitComponentsService,
    private readonly vendors: ProductVendorsService,
    private readonly builds: BuildsService,
    private readonly refresher: DemandAverageRefresher,
  ) {
    super('replenishment');
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    // The oldest location: the location seed's, where the inventory seed stocks.
    const location = (
      await this.locations.list({ limit: 1, ending_before: '00000000-0000-0000-0000-000000000000' }, '')
    ).data[0] as { id: string } | undefined;
    if (!location) throw new Error('The replenishment seed needs the QA location of the location seed');
    const product = (sku: string, name: string, type: 'standard' | 'kit', price: number) =>
      this.products.create({ sku, name, type, list_price: price, unit_of_measure: 'ea' });

    const frame = await product('QA-FRAME-001', 'QA frame', 'standard', 40);
    const wheel = await product('QA-WHEEL-001', 'QA wheel', 'standard', 15);
    const kit = await product('QA-KIT-001', 'QA bicycle kit', 'kit', 120);
    await this.components.add(kit.id, { component_product_id: frame.id, quantity: 1 });
    await this.components.add(kit.id, { component_product_id: wheel.id, quantity: 2 });
    for (const [p, quantity, cost] of [
      [frame.id, 20, 25],
      [wheel.id, 40, 6],
    ] as const) {
      await this.adjustments.create({
        product_id: p,
        location_id: location.id,
        quantity,
        unit_cost: cost,
        reason: 'QA opening stock',
      });
    }
    await this.builds.create({ kit_product_id: kit.id, quantity: 2, location_id: location.id });

    const reorder = await product('QA-REORDER-001', 'QA reorder product', 'standard', 8);
    const vendor = await this.accounts.create({ name: 'QA Vendor Supply Co.' });
    await this.vendors.create(reorder.id, {
      vendor_account_id: vendor.id,
      vendor_sku: 'VEND-REORDER-1',
      unit_cost: 3,
      lead_time_days: 14,
      min_order_quantity: 48,
      order_multiple: 24,
      is_preferred: true,
    });
    const stocked = await this.adjustments.create({
      product_id: reorder.id,
      location_id: location.id,
      quantity: 400,
      unit_cost: 3,
      reason: 'QA opening stock',
    });
    await this.balances.update(stocked.balance.id, { reorder_point: 60, safety_stock: 10 });
    const customer = await this.accounts.create({ name: 'QA Reorder Customer' });
    const history = seedHistory();
    const order = await this.orders.create({
      document_type: 'sales_order',
      account_id: customer.id,
      lines: [{ product_id: reorder.id, quantity: history.reduce((sum, h) => sum + h.quantity, 0) }],
      notes: 'QA sales history (shipped over 13 months)',
    });
    const now = Date.now();
    await this.history.importShipments({
      orderId: order.id,
      batches: [...history].reverse().map((h) => ({
        occurredAt: new Date(now - h.daysAgo * DAY_MS),
        lines: [
          {
            orderItemId: order.lines[0].id,
            productId: reorder.id,
            locationId: location.id,
            quantity: h.quantity,
          },
        ],
      })),
    });
    // The seeded products' demand averages, current when the seed commits.
    await this.refresher.refreshMarked();
    return { kit_product_id: kit.id, reorder_product_id: reorder.id };
  }
}
