import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { previousAttributes } from '#platform/events/previous-attributes';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { initialMetadata, mergeMetadata } from '#platform/domain/metadata';
import { productTransition } from '../domain/product';
import { ProductRepository } from '../infrastructure/product.repository';
import { ProductVariantRepository } from '../infrastructure/product-variant.repository';
import { ProductVariantRecord } from '../infrastructure/product.entity';
import { ProductVariantResource, toVariantResource } from './product.presenter';
import { applyWeight, claimSkus, decimalOrNull, WeightInput } from './product-values';

export interface VariantInput {
  sku: string;
  name: string;
  options?: Record<string, string>;
  list_price?: number | null;
  cost_price?: number | null;
  weight?: WeightInput | null;
  metadata?: Record<string, string | null>;
}

export type VariantChanges = Partial<VariantInput>;

/** The fields expand[] follows on product_variant (declared when the module loads, for the OpenAPI description). */
const PRODUCT_VARIANT_EXPANSIONS = expandableFields('product_variant', references({ product: 'product' }));

/**
 * Variants of a product: their own ids, SKUs sharing the uniqueness of product SKUs, changed only
 * while their product is active. Product creation inserts its variants through insert()/insertMany().
 */
@Injectable()
export class ProductVariantsService implements OnModuleInit {
  constructor(
    private readonly products: ProductRepository,
    private readonly variants: ProductVariantRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords(
      'product_variant',
      this.variants,
      toVariantResource,
      PRODUCT_VARIANT_EXPANSIONS,
    );
  }

  /** The columns of a new variant of a product. */
  private values(productId: string, input: VariantInput): Partial<ProductVariantRecord> {
    const values: Partial<ProductVariantRecord> = {
      productId,
      sku: input.sku,
      name: input.name,
      options: input.options ?? {},
      listPrice: decimalOrNull(input.list_price),
      costPrice: decimalOrNull(input.cost_price),
      weight: null,
      weightUnit: null,
      metadata: initialMetadata(input.metadata),
    };
    applyWeight(values as ProductVariantRecord, input.weight ?? null);
    return values;
  }

  /**
   * Inserts one variant of a product, in the caller's transaction; its SKU is already claimed
   * (add() and product creation claim it together with the product's).
   */
  async insert(productId: string, input: VariantInput): Promise<ProductVariantRecord> {
    return this.variants.create(this.values(productId, input));
  }

  /** insert() for the variants of several products in one multi-row statement (bulk creation). */
  async insertMany(
    rows: readonly { productId: string; input: VariantInput }[],
  ): Promise<ProductVariantRecord[]> {
    return this.variants.createMany(rows.map((r) => this.values(r.productId, r.input)));
  }

  async add(productId: string, input: VariantInput): Promise<ProductVariantResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(productId);
      productTransition('edit', product);
      await claimSkus(this.products, [{ sku: input.sku, param: 'sku' }]);
      const variant = toVariantResource(await this.insert(product.id, input));
      await this.events.publish('product.variant.created', variant);
      return variant;
    });
  }

  async list(productId: string, url: string): Promise<ListPage<ProductVariantResource>> {
    const product = await this.products.getById(productId);
    const variants = (await this.variants.ofProducts([product.id])).get(product.id) ?? [];
    return listEnvelope(variants.map(toVariantResource), { has_more: false }, url);
  }

  async retrieve(productId: string, variantId: string): Promise<ProductVariantResource> {
    const product = await this.products.getById(productId);
    return toVariantResource(await this.variants.getOfProduct(product.id, variantId));
  }

  async update(
    productId: string,
    variantId: string,
    changes: VariantChanges,
  ): Promise<ProductVariantResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(productId);
      productTransition('edit', product);
      const variant = await this.variants.getOfProduct(product.id, variantId);
      const before = toVariantResource(variant);
      if (changes.sku !== undefined && changes.sku !== variant.sku) {
        await claimSkus(this.products, [{ sku: changes.sku, param: 'sku', except: variant.id }]);
        variant.sku = changes.sku;
      }
      if (changes.name !== undefined) variant.name = changes.name;
      if (changes.options !== undefined) variant.options = changes.options;
      if (changes.list_price !== undefined) variant.listPrice = decimalOrNull(changes.list_price);
      if (changes.cost_price !== undefined) variant.costPrice = decimalOrNull(changes.cost_price);
      if (changes.weight !== undefined) applyWeight(variant, changes.weight);
      if (changes.metadata !== undefined)
        variant.metadata = mergeMetadata(variant.metadata, changes.metadata);
      const previous = previousAttributes(before, toVariantResource(variant));
      if (Object.keys(previous).length === 0) return before;
      const resource = toVariantResource(await this.variants.save(variant));
      await this.events.publish('product.variant.updated', resource, previous);
      return resource;
    });
  }

  /** Variants are removed for good (their SKU becomes free again). */
  async remove(
    productId: string,
    variantId: string,
  ): Promise<{ id: string; object: 'product_variant'; deleted: true }> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(productId);
      productTransition('edit', product);
      const variant = await this.variants.getOfProduct(product.id, variantId);
      const resource = toVariantResource(variant);
      await this.variants.delete(variant);
      await this.events.publish('product.variant.deleted', resource);
      return { id: variantId, object: 'product_variant' as const, deleted: true as const };
    });
  }
}
