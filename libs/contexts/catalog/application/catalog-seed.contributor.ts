import { Injectable } from '@nestjs/common';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { ChannelListingsService } from './channel-listings.service';
import { ProductsService } from './products.service';
import { TagsService } from './tags.service';

/** QA fixtures of the catalog (docs/reference/qa-seed.md): tag_id, product_id and two channel listings. */
@Injectable()
export class CatalogSeedContributor extends LiveSeedContributor {
  constructor(
    private readonly tags: TagsService,
    private readonly products: ProductsService,
    private readonly listings: ChannelListingsService,
  ) {
    super('catalog');
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    const tag = await this.tags.create({ name: 'QA priority', color: '#1f6feb' });
    const product = await this.products.create({
      sku: 'QA-WIDGET-001',
      name: 'QA Widget',
      description: 'A stocked standard product for QA.',
      type: 'standard',
      unit_of_measure: 'ea',
      list_price: 25,
      cost_price: 10,
      weight: { value: 0.5, unit: 'kg' },
      dimensions: { length: 20, width: 15, height: 10, unit: 'cm' },
      freight_insurance: true,
    });
    await this.products.addTag(product.id, { tag_id: tag.id });
    const storefront = await this.listings.create({
      product_id: product.id,
      channel: 'storefront',
      price: 27.5,
    });
    const marketplace = await this.listings.create({
      product_id: product.id,
      channel: 'marketplace1',
      price: 29,
    });
    return {
      tag_id: tag.id,
      product_id: product.id,
      storefront_listing_id: storefront.id,
      marketplace_listing_id: marketplace.id,
    };
  }
}
