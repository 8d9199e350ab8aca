import { Inject, Injectable } from '@nestjs/common';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { ProductsService } from '#contexts/catalog';
import { AccountsService, SalesOrders } from '#contexts/sales';
import { AdjustmentsService, LOCATIONS_SERVICE } from '#contexts/inventory';
import { LabelsService } from './labels.service';
import { CreatePackage } from './packages/create-package';
import { VoidPackage } from './packages/void-package';

/**
 * QA fixture of fulfillment (docs/reference/qa-seed.md): `shipped_package_id`, a package of its
 * own confirmed sales order (so `sales_order` stays unpacked) with a bought sandbox USPS label,
 * fulfilled through fulfill_after_label. Its product, QA-INSURED-001, is flagged
 * freight_insurance and stocked here; the entity's insurance threshold stays unset. Runs after
 * the sales and inventory seeds.
 */
@Injectable()
export class FulfillmentSeedContributor extends LiveSeedContributor {
  constructor(
    private readonly products: ProductsService,
    private readonly accounts: AccountsService,
    private readonly orders: SalesOrders,
    private readonly createPackage: CreatePackage,
    private readonly voidPackage: VoidPackage,
    private readonly labels: LabelsService,
    private readonly adjustments: AdjustmentsService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
  ) {
    super('fulfillment');
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    const account = (await this.accounts.list({ limit: 100 }, '/v1/accounts')).data.find(
      (a) => a.name === 'QA Customer Inc',
    );
    if (!account) throw new Error('The fulfillment seed needs the sales seed');
    // A product of its own, so the stock of the shared QA widget stays as the inventory seed left it.
    const widget = await this.products.create({
      sku: 'QA-INSURED-001',
      name: 'QA Insured Lamp',
      type: 'standard',
      list_price: 80,
      weight: { value: 3, unit: 'lb' },
      freight_insurance: true,
    });
    const oldest = await this.locations.list(
      { limit: 1, ending_before: '00000000-0000-0000-0000-000000000000' },
      '',
    );
    const locationId = oldest.data[0]?.id;
    if (!locationId) throw new Error('The fulfillment seed needs the QA location of the location seed');
    await this.adjustments.create({
      product_id: widget.id,
      location_id: locationId,
      quantity: 5,
      unit_cost: 30,
      reason: 'QA opening stock',
    });
    const draft = await this.orders.create({
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 1 }],
      notes: 'QA order of the shipped package fixture',
    });
    const order = await this.orders.confirm(draft.id);
    const item = { order_item_id: order.lines[0].id, quantity: 1 };
    const quoted = await this.createPackage.execute({ order_id: order.id, weight: 2, items: [item] }, null);
    const rates = await this.labels.quote(quoted.id, `/v1/packages/${quoted.id}/rates`);
    const rate = rates.data.find((r) => r.carrier === 'usps' && r.service_level === 'priority')!;
    // The quoting package is voided: the shipped one holds the order's only unit.
    await this.voidPackage.void(quoted.id);
    const shipped = await this.createPackage.execute(
      {
        order_id: order.id,
        weight: 2,
        items: [item],
        buy_label: true,
        rate_object_id: rate.rate_object_id,
        fulfill_after_label: true,
      },
      null,
    );
    // Invoiced, so the receivables it debited at shipment are on an open invoice and the AR
    // subledger reconciles (the invoice posts nothing more: its revenue was recognised).
    const invoice = await this.orders.convert(order.id);
    await this.orders.confirm(invoice.id);
    return { shipped_package_id: shipped.id };
  }
}
