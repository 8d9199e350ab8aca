import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { together } from '#platform/persistence/together';
import { FulfillmentFacts, FulfillmentPostings } from '../application/fulfillment-postings.service';
import { OrderFacts, OrderReader } from '../application/order-facts';
import { PackageViews, PackedProduct } from '../application/package-views.service';
import { ShippingRateRecord } from './fulfillment.entities';
import { FulfillmentSettingsRepository } from './fulfillment-settings.repository';
import { NewPackageWriter } from './new-package.writer';
import { ShippingRateRepository } from './shipping-rate.repository';

/**
 * The reads of POST /packages, in two groups whose reads need nothing from each other: each group
 * is issued at once on the transaction's connection and costs one round trip (`together`). On
 * bench:fulfillment this buys about 14 % packages/s over reading one by one (docs/performance.md).
 */
@Injectable()
export class PackingReads {
  constructor(
    private readonly reader: OrderReader,
    private readonly newPackages: NewPackageWriter,
    private readonly settings: FulfillmentSettingsRepository,
    private readonly rates: ShippingRateRepository,
    private readonly views: PackageViews,
    private readonly postings: FulfillmentPostings,
  ) {}

  /**
   * The order with its lines; the order locked against concurrent packing, with the units its
   * packages already hold by package status then order line; the entity's insurance threshold;
   * the rate to buy, when one is named.
   */
  async orderToPack(
    orderId: string,
    rateObjectId: string | null,
  ): Promise<{
    order: OrderFacts;
    unitsByStatus: Map<string, Map<string, number>>;
    insuranceThreshold: Decimal | null;
    rate: ShippingRateRecord | null;
  }> {
    const [order, unitsByStatus, { insuranceThreshold }, rate] = await together([
      this.reader.order(orderId),
      this.newPackages.lockOrderAndReadUnits(orderId),
      this.settings.current(),
      rateObjectId ? this.rates.findByRateObjectId(rateObjectId) : null,
    ]);
    return { order, unitsByStatus, insuranceThreshold, rate };
  }

  /**
   * What the packed lines lead to: their products; the customer, when a label is bought; what the
   * FULFILLMENT entry needs, when the package ships now.
   */
  async packedLineFacts(
    productIds: string[],
    customerOf: OrderFacts | null,
    shipsNow: boolean,
  ): Promise<{
    products: Map<string, PackedProduct>;
    customer: { name: string; email: string | null } | null;
    entryFacts: FulfillmentFacts | null;
  }> {
    const [products, customer, entryFacts] = await together([
      this.views.products(productIds),
      customerOf ? this.reader.customer(customerOf.accountId) : null,
      shipsNow ? this.postings.fulfillmentFacts() : null,
    ]);
    return { products, customer, entryFacts };
  }
}
