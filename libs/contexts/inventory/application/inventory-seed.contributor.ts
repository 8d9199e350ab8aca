import { Injectable } from '@nestjs/common';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { ProductsService } from '#contexts/catalog';
import { PurchaseOrderReceivingService } from '#contexts/sales';
import { StockCommitmentRepository } from '../infrastructure/stock-commitment.repository';
import { AdjustmentsService } from './adjustments.service';
import { BalancesService } from './balances.service';
import { PurchaseOrderReceiptsService } from './purchase-order-receipts.service';
import { SerialAllocationsService } from './serial-allocations.service';
import { StockReferences } from './stock-references';

/**
 * QA fixtures of inventory (docs/reference/qa-seed.md): `product_id` stocked at `location_id`
 * with a reorder point, `serial_order.serials` (2 serials allocated on its line) and
 * `purchase_order_id` (partially received). Runs after the catalog, location and sales seeds.
 */
@Injectable()
export class InventorySeedContributor extends LiveSeedContributor {
  constructor(
    private readonly products: ProductsService,
    private readonly references: StockReferences,
    private readonly adjustments: AdjustmentsService,
    private readonly balances: BalancesService,
    private readonly allocations: SerialAllocationsService,
    private readonly commitments: StockCommitmentRepository,
    private readonly purchaseOrders: PurchaseOrderReceivingService,
    private readonly receipts: PurchaseOrderReceiptsService,
  ) {
    super('inventory');
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    const bySku = async (sku: string) => {
      const found = (await this.products.list({ sku, limit: 1 }, '/v1/products')).data[0];
      if (!found) throw new Error(`The inventory seed needs product ${sku} from the earlier seeds`);
      return found;
    };
    const widget = await bySku('QA-WIDGET-001');
    const scanner = await bySku('QA-SERIAL-001');
    const locationId = await this.references.firstLocationId();
    if (!locationId) throw new Error('The inventory seed needs the QA location of the location seed');
    const stocked = await this.adjustments.create({
      product_id: widget.id,
      location_id: locationId,
      quantity: 50,
      unit_cost: 10,
      reason: 'QA opening stock',
    });
    await this.balances.update(stocked.balance.id, {
      reorder_point: 10,
      reorder_quantity: 40,
      safety_stock: 5,
    });
    const serials = ['QA-SN-0001', 'QA-SN-0002', 'QA-SN-0003', 'QA-SN-0004', 'QA-SN-0005'];
    await this.adjustments.create({
      product_id: scanner.id,
      location_id: locationId,
      quantity: serials.length,
      unit_cost: 80,
      reason: 'QA opening stock',
      serial_numbers: serials,
    });
    const line = await this.commitments.firstOpenOfProduct(scanner.id, 'allocated');
    if (!line) throw new Error('The sales seed must confirm its serial order before the inventory seed runs');
    const allocated = await this.allocations.allocate(line.orderId, line.orderItemId, {
      serial_numbers: serials.slice(0, 2),
    });
    const po = await this.purchaseOrders.create({
      lines: [{ product_id: widget.id, quantity: 10, unit_price: 9.5 }],
      notes: 'QA purchase order, partially received',
    });
    await this.purchaseOrders.confirm(po.id);
    await this.receipts.receive(po.id, {
      lines: [{ order_item_id: po.lines[0].id, quantity: 4, location_id: locationId }],
    });
    return {
      serial_order: {
        id: line.orderId,
        item_id: line.orderItemId,
        product_id: scanner.id,
        serials: allocated.serials.map((s) => s.serial_number),
      },
      purchase_order_id: po.id,
    };
  }
}
