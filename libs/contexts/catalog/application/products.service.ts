import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DomainError } from '#platform/errors/domain-error';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/domain/money';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { CatalogError, missingReference } from '../domain/catalog-error';
import { initialMetadata, mergeMetadata } from '#platform/domain/metadata';
import {
  changedDemandAverages,
  DimensionUnit,
  duplicateSku,
  ProductStatus,
  productTransition,
  ProductType,
} from '../domain/product';
import { ProductCategoryRepository } from '../infrastructure/product-category.repository';
import { ProductRepository } from '../infrastructure/product.repository';
import { ProductVariantRepository } from '../infrastructure/product-variant.repository';
import { ProductRecord, ProductVariantRecord } from '../infrastructure/product.entity';
import { previousAttributes } from '#platform/events/previous-attributes';
import { ProductResource, toProductResource } from './product.presenter';
import { applyWeight, claimSkus, decimalOrNull, WeightInput } from './product-values';
import { ProductVariantsService, VariantInput } from './product-variants.service';
import { TagRef, TagsService } from './tags.service';

export interface DimensionsInput {
  length: number;
  width: number;
  height: number;
  unit: DimensionUnit;
}

export interface ProductInput {
  sku: string;
  name: string;
  description?: string | null;
  type?: ProductType;
  unit_of_measure?: string;
  list_price?: number;
  currency?: string;
  cost_price?: number | null;
  weight?: WeightInput | null;
  dimensions?: DimensionsInput | null;
  freight_insurance?: boolean;
  serial_tracked?: boolean;
  category_id?: string | null;
  metadata?: Record<string, string | null>;
  variants?: VariantInput[];
}

export type ProductChanges = Partial<Omit<ProductInput, 'variants'>>;

export interface ProductFilters {
  sku?: string;
  type?: ProductType;
  status?: ProductStatus;
  category_id?: string;
}

/** The fields expand[] follows on product (declared when the module loads, for the OpenAPI description). */
const PRODUCT_EXPANSIONS = expandableFields('product', {
  category: {
    kind: 'reference',
    source: 'category_id',
    target: 'category',
    resource: 'product_category',
  },
});

/**
 * Products: SKUs unique per entity and mode (across products and variants), archive and restore,
 * tags. A product's variants are ProductVariantsService's; creation inserts them through it.
 */
@Injectable()
export class ProductsService implements OnModuleInit {
  constructor(
    private readonly products: ProductRepository,
    private readonly variants: ProductVariantRepository,
    private readonly productVariants: ProductVariantsService,
    private readonly categories: ProductCategoryRepository,
    private readonly tags: TagsService,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    private readonly profiles: EntityProfiles,
  ) {}

  /** The entity's base currency, the default currency of new products. */
  private async entityCurrency(): Promise<string> {
    return (await this.profiles.current())?.baseCurrency ?? 'USD';
  }

  onModuleInit(): void {
    this.resources.register({
      name: 'product',
      fields: PRODUCT_EXPANSIONS,
      load: (ids) => this.products.presentByIds(ids, (rows) => this.present(rows)),
    });
  }

  /** Serializes products with their variants and tag ids: two queries for any number of products. */
  private async present(rows: ProductRecord[]): Promise<ProductResource[]> {
    const ids = rows.map((r) => r.id);
    const [variants, tagIds] = await Promise.all([
      this.variants.ofProducts(ids),
      this.tags.tagIdsOf('product', ids),
    ]);
    return rows.map((r) => toProductResource(r, variants.get(r.id) ?? [], tagIds.get(r.id) ?? []));
  }

  private async presentOne(row: ProductRecord): Promise<ProductResource> {
    return (await this.present([row]))[0];
  }

  private async assertCategory(categoryId: string | null | undefined): Promise<void> {
    if (categoryId && !(await this.categories.findById(categoryId)))
      throw missingReference('category_id', 'product category', categoryId);
  }

  private applyDimensions(target: ProductRecord, dimensions: DimensionsInput | null): void {
    target.length = dimensions ? money(dimensions.length) : null;
    target.width = dimensions ? money(dimensions.width) : null;
    target.height = dimensions ? money(dimensions.height) : null;
    target.dimensionUnit = dimensions ? dimensions.unit : null;
  }

  /** The columns of a new product (create() and createMany() share them). */
  private productValues(input: ProductInput, currency: string): Partial<ProductRecord> {
    const values = {
      sku: input.sku,
      name: input.name,
      description: input.description ?? null,
      type: input.type ?? 'standard',
      status: 'active',
      unitOfMeasure: input.unit_of_measure ?? 'ea',
      listPrice: money(input.list_price ?? 0),
      currency: input.currency ?? currency,
      costPrice: decimalOrNull(input.cost_price),
      freightInsurance: input.freight_insurance ?? false,
      serialTracked: input.serial_tracked ?? false,
      demandAvgPerDay: money(0),
      categoryId: input.category_id ?? null,
      metadata: initialMetadata(input.metadata),
      archivedAt: null,
    } as Partial<ProductRecord>;
    applyWeight(values as ProductRecord, input.weight ?? null);
    this.applyDimensions(values as ProductRecord, input.dimensions ?? null);
    return values;
  }

  async create(input: ProductInput): Promise<ProductResource> {
    return this.tx.run(async () => {
      await claimSkus(this.products, [
        { sku: input.sku, param: 'sku' },
        ...(input.variants ?? []).map((v, i) => ({ sku: v.sku, param: `variants[${i}].sku` })),
      ]);
      await this.assertCategory(input.category_id);
      const values = this.productValues(input, input.currency ?? (await this.entityCurrency()));
      const product = await this.products.create(values);
      for (const variant of input.variants ?? []) await this.productVariants.insert(product.id, variant);
      const resource = await this.presentOne(product);
      await this.events.publish('product.created', resource);
      return resource;
    });
  }

  /**
   * Creates several products at once (bulk imports): each input goes through the rules of
   * create() (SKUs unique across products, variants and the batch itself, category exists) and
   * gets its own product.created event, but SKUs are locked and checked, products and variants
   * inserted and events written with a few multi-row statements in one transaction. An input
   * that breaks a rule is returned as its DomainError (nothing written for it); the others land.
   */
  async createMany(inputs: readonly ProductInput[]): Promise<(ProductResource | DomainError)[]> {
    return this.tx.run(async () => {
      const skusOf = (input: ProductInput) => [
        { sku: input.sku, param: 'sku' },
        ...(input.variants ?? []).map((v, i) => ({ sku: v.sku, param: `variants[${i}].sku` })),
      ];
      await this.products.lockSkus(inputs.flatMap((input) => skusOf(input).map((c) => c.sku)));
      const taken = await this.products.takenSkus(inputs.flatMap((input) => skusOf(input).map((c) => c.sku)));
      const categoryIds = [...new Set(inputs.map((i) => i.category_id).filter((id): id is string => !!id))];
      const categories = new Set((await this.categories.findByIds(categoryIds)).map((c) => c.id));
      const currency = inputs.some((i) => i.currency === undefined) ? await this.entityCurrency() : 'USD';
      const results: (ProductResource | DomainError)[] = new Array(inputs.length);
      const accepted: { index: number; input: ProductInput }[] = [];
      for (const [index, input] of inputs.entries()) {
        const claims = skusOf(input);
        // As claimSkus(): a SKU repeated within the input first, then one already taken (by the
        // database or by an earlier input of this batch).
        const repeated = claims.find((c, i) => claims.findIndex((o) => o.sku === c.sku) !== i);
        const clash = repeated ?? claims.find((c) => taken.has(c.sku));
        if (clash) {
          results[index] = duplicateSku(clash.sku, clash.param);
          continue;
        }
        if (input.category_id && !categories.has(input.category_id)) {
          results[index] = missingReference('category_id', 'product category', input.category_id);
          continue;
        }
        for (const c of claims) taken.add(c.sku);
        accepted.push({ index, input });
      }
      const products = await this.products.createMany(
        accepted.map((a) => this.productValues(a.input, currency)),
      );
      const variants = await this.productVariants.insertMany(
        accepted.flatMap((a, i) =>
          (a.input.variants ?? []).map((input) => ({ productId: products[i].id, input })),
        ),
      );
      const variantsOf = new Map<string, ProductVariantRecord[]>(products.map((p) => [p.id, []]));
      for (const v of variants) variantsOf.get(v.productId)!.push(v);
      const resources = products.map((p) => toProductResource(p, variantsOf.get(p.id)!, []));
      accepted.forEach((a, i) => (results[a.index] = resources[i]));
      await this.events.publishMany(resources.map((object) => ({ type: 'product.created', object })));
      return results;
    });
  }

  async list(query: ListQueryDto & ProductFilters, url: string): Promise<ListPage<ProductResource>> {
    const page = await this.products.list(query, url);
    return listEnvelope(await this.present(page.rows), page, url);
  }

  async retrieve(id: string): Promise<ProductResource> {
    return this.presentOne(await this.products.getById(id));
  }

  async update(id: string, changes: ProductChanges): Promise<ProductResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(id);
      productTransition('edit', product);
      const before = await this.presentOne(product);
      if (changes.sku !== undefined && changes.sku !== product.sku) {
        await claimSkus(this.products, [{ sku: changes.sku, param: 'sku', except: product.id }]);
        product.sku = changes.sku;
      }
      if (changes.category_id !== undefined) {
        await this.assertCategory(changes.category_id);
        product.categoryId = changes.category_id;
      }
      if (changes.name !== undefined) product.name = changes.name;
      if (changes.description !== undefined) product.description = changes.description;
      if (changes.type !== undefined) product.type = changes.type;
      if (changes.unit_of_measure !== undefined) product.unitOfMeasure = changes.unit_of_measure;
      if (changes.list_price !== undefined) product.listPrice = money(changes.list_price);
      if (changes.currency !== undefined) product.currency = changes.currency;
      if (changes.cost_price !== undefined) product.costPrice = decimalOrNull(changes.cost_price);
      if (changes.weight !== undefined) applyWeight(product, changes.weight);
      if (changes.dimensions !== undefined) this.applyDimensions(product, changes.dimensions);
      if (changes.freight_insurance !== undefined) product.freightInsurance = changes.freight_insurance;
      if (changes.serial_tracked !== undefined) product.serialTracked = changes.serial_tracked;
      if (changes.metadata !== undefined)
        product.metadata = mergeMetadata(product.metadata, changes.metadata);
      const after = toProductResource(product, [], before.tag_ids);
      const previous = previousAttributes({ ...before, variants: [] }, after, ['updated_at', 'variants']);
      if (Object.keys(previous).length === 0) return before;
      const resource = await this.presentOne(await this.products.save(product));
      await this.events.publish('product.updated', resource, previous);
      return resource;
    });
  }

  /** Soft delete: the product is archived and keeps its SKU; restore brings it back. */
  async archive(id: string): Promise<{ id: string; object: 'product'; deleted: true }> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(id);
      product.status = productTransition('archive', product);
      product.archivedAt = new Date();
      const resource = await this.presentOne(await this.products.save(product));
      await this.events.publish('product.deleted', resource, { status: 'active', archived_at: null });
      return { id, object: 'product' as const, deleted: true as const };
    });
  }

  async restore(id: string): Promise<ProductResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(id);
      const restored = productTransition('restore', product);
      const archivedAt = product.archivedAt;
      product.status = restored;
      product.archivedAt = null;
      const resource = await this.presentOne(await this.products.save(product));
      await this.events.publish('product.restored', resource, {
        status: 'archived',
        archived_at: archivedAt?.toISOString() ?? null,
      });
      return resource;
    });
  }

  async addTag(productId: string, { tag_id: tagId }: TagRef): Promise<ProductResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(productId);
      const added = await this.tags.attach('product', product.id, tagId);
      const resource = await this.presentOne(product);
      if (added)
        await this.events.publish('product.tag.added', resource, {
          tag_ids: resource.tag_ids.filter((t) => t !== tagId),
        });
      return resource;
    });
  }

  async removeTag(productId: string, tagId: string): Promise<ProductResource> {
    return this.tx.run(async () => {
      const product = await this.products.getForUpdate(productId);
      const before = await this.tags.tagIdsOf('product', [product.id]);
      if (!(await this.tags.detach('product', product.id, tagId))) {
        throw new CatalogError('not_found', {
          hint: `Tag '${tagId}' is not attached to product '${product.id}'.`,
        });
      }
      const resource = await this.presentOne(product);
      await this.events.publish('product.tag.removed', resource, { tag_ids: before.get(product.id) ?? [] });
      return resource;
    });
  }

  /**
   * For the replenishment context: the average daily demand of `productIds`, which `compute`
   * reads once the products are locked. Those whose value changed are written with one UPDATE (version and updated_at bumped
   * as by any update), presented in one batch and each gets its own product.updated event
   * (previous_attributes: the old demand_avg_per_day), all in one insert.
   */
  async recordDemandAverages(
    productIds: readonly string[],
    compute: () => Promise<ReadonlyMap<string, Decimal>>,
  ): Promise<void> {
    if (productIds.length === 0) return;
    await this.tx.run(async () => {
      const locked = await this.products.getManyForUpdate(productIds);
      const averages = await compute();
      const changes = changedDemandAverages(locked, averages);
      if (changes.length === 0) return;
      // As the presenter shows it (no query: the old value is all the event needs of "before").
      const previous = new Map(
        changes.map(({ product }) => [product.id, toProductResource(product, [], []).demand_avg_per_day]),
      );
      for (const { product, next } of changes) product.demandAvgPerDay = money(next);
      const changed = changes.map((c) => c.product);
      await this.products.writeDemandAverages(changed);
      const resources = await this.present(changed);
      await this.events.publishMany(
        resources.map((object) => ({
          type: 'product.updated',
          object,
          previousAttributes: { demand_avg_per_day: previous.get(object.id) },
        })),
      );
    });
  }
}
