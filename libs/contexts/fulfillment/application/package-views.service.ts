import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ProductFactsService } from '#contexts/catalog';
import { insuranceSummary, InsuranceSummary } from '../domain/insurance';
import { money } from '#platform/domain/money';
import { PackageItemRecord, PackageLabelRecord, PackageRecord } from '../infrastructure/fulfillment.entities';
import { FulfillmentSettingsRepository } from '../infrastructure/fulfillment-settings.repository';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { PackageLabelRepository } from '../infrastructure/package-label.repository';
import { PackageResource, toPackageResource } from './package.presenter';

/** What packaging needs to know about a product (read through the catalog's product facts). */
export interface PackedProduct {
  id: string;
  type: string;
  freight_insurance: boolean;
  serial_tracked: boolean;
  weight: { value: number; unit: string } | null;
  dimensions: { length: number; width: number; height: number; unit: string } | null;
}

/** Presents packages with their items, label data and insurance summary (a fixed number of queries for any page). */
@Injectable()
export class PackageViews {
  constructor(
    private readonly items: PackageItemRepository,
    private readonly labels: PackageLabelRepository,
    private readonly settings: FulfillmentSettingsRepository,
    private readonly catalog: ProductFactsService,
  ) {}

  /** Products through the catalog's application service (never its tables): one query. */
  async products(ids: string[]): Promise<Map<string, PackedProduct>> {
    if (ids.length === 0) return new Map();
    const facts = await this.catalog.factsOf([...new Set(ids)]);
    return new Map(
      [...facts.values()].map((p) => [
        p.id,
        {
          id: p.id,
          type: p.type,
          freight_insurance: p.freightInsurance,
          serial_tracked: p.serialTracked,
          weight: p.weight,
          dimensions: p.dimensions,
        },
      ]),
    );
  }

  /** The summary before a purchase: what the next label would insure. */
  async insurance(p: PackageRecord, items: PackageItemRecord[]): Promise<InsuranceSummary | null> {
    const products = await this.products(items.map((i) => i.productId));
    return this.summary(p, items, products, (await this.settings.current()).insuranceThreshold, undefined);
  }

  summary(
    p: PackageRecord,
    items: PackageItemRecord[],
    products: Map<string, PackedProduct>,
    threshold: Decimal | null,
    label: PackageLabelRecord | undefined,
  ): InsuranceSummary | null {
    return insuranceSummary({
      items: items.map((i) => ({
        id: i.id,
        quantity: i.quantity,
        unitPrice: i.unitPrice,
        freightInsurance: products.get(i.productId)?.freight_insurance ?? false,
      })),
      override: p.insuranceAmountOverride,
      threshold,
      carrier: p.carrier,
      boughtAmount: label ? (label.insuredAmount ?? money(0)) : null,
    });
  }

  async present(rows: PackageRecord[]): Promise<PackageResource[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    // One after the other: inside a transaction the three share one connection.
    const items = await this.items.ofPackages(ids);
    const labels = await this.labels.ofPackages(ids);
    const settings = await this.settings.current();
    const products = await this.products([...items.values()].flat().map((i) => i.productId));
    return rows.map((r) =>
      this.build(r, items.get(r.id) ?? [], labels.get(r.id), products, settings.insuranceThreshold),
    );
  }

  /** The resource of a package from what the caller already holds (no query). */
  build(
    p: PackageRecord,
    items: PackageItemRecord[],
    label: PackageLabelRecord | undefined,
    products: Map<string, PackedProduct>,
    threshold: Decimal | null,
  ): PackageResource {
    return toPackageResource(p, items, label, this.summary(p, items, products, threshold, label));
  }

  async presentOne(row: PackageRecord): Promise<PackageResource> {
    return (await this.present([row]))[0];
  }
}
