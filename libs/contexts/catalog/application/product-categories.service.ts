import { deleteRecord, updateRecord } from '#platform/events/record-changes';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { CatalogError, missingReference } from '../domain/catalog-error';
import { initialMetadata, mergeMetadata } from '#platform/domain/metadata';
import { assertDepth, assertNoCycle, CATEGORY_MAX_DEPTH } from '../domain/product-category';
import { ProductCategoryRepository } from '../infrastructure/product-category.repository';
import { ProductRepository } from '../infrastructure/product.repository';
import { ProductCategoryResource, toCategoryResource } from './product-category.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';
import type { ProductCategoryRecord } from '../infrastructure/product-category.entity';

export interface CategoryInput {
  name: string;
  description?: string | null;
  parent_id?: string | null;
  metadata?: Record<string, string | null>;
}

export type CategoryChanges = Partial<CategoryInput>;

/** The fields expand[] follows on product_category (declared when the module loads, for the OpenAPI description). */
const PRODUCT_CATEGORY_EXPANSIONS = expandableFields(
  'product_category',
  references({ parent: 'product_category' }),
);

/** Product categories: a tree (optional parent) that products point into. */
@Injectable()
export class ProductCategoriesService
  extends ResourceReads<ProductCategoryRecord, ProductCategoryResource, ListQueryDto & { parent_id?: string }>
  implements OnModuleInit
{
  constructor(
    private readonly categories: ProductCategoryRepository,
    private readonly products: ProductRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {
    super(categories, toCategoryResource);
  }

  onModuleInit(): void {
    this.resources.registerRecords(
      'product_category',
      this.categories,
      toCategoryResource,
      PRODUCT_CATEGORY_EXPANSIONS,
    );
  }

  /** Checks the proposed parent exists, is not the category or a descendant, and keeps the tree shallow. */
  private async checkParent(
    categoryId: string | undefined,
    parentId: string | null | undefined,
  ): Promise<void> {
    if (!parentId) return;
    if (!(await this.categories.findById(parentId)))
      throw missingReference('parent_id', 'product category', parentId);
    const ancestors = await this.categories.ancestorsOf(parentId, CATEGORY_MAX_DEPTH);
    if (categoryId) assertNoCycle(categoryId, parentId, ancestors);
    assertDepth(ancestors);
  }

  async create(input: CategoryInput): Promise<ProductCategoryResource> {
    return this.tx.run(async () => {
      await this.checkParent(undefined, input.parent_id);
      const category = await this.categories.create({
        name: input.name,
        description: input.description ?? null,
        parentId: input.parent_id ?? null,
        metadata: initialMetadata(input.metadata),
      });
      const resource = toCategoryResource(category);
      await this.events.publish('product.category.created', resource);
      return resource;
    });
  }

  async update(id: string, changes: CategoryChanges): Promise<ProductCategoryResource> {
    return updateRecord(this.tx, this.events, this.categories, id, {
      present: toCategoryResource,
      event: 'product.category.updated',
      apply: async (category) => {
        if (changes.parent_id !== undefined) {
          await this.checkParent(category.id, changes.parent_id);
          category.parentId = changes.parent_id;
        }
        if (changes.name !== undefined) category.name = changes.name;
        if (changes.description !== undefined) category.description = changes.description;
        if (changes.metadata !== undefined)
          category.metadata = mergeMetadata(category.metadata, changes.metadata);
      },
    });
  }

  /** Permanent; refused while products (archived ones included) or child categories point to it. */
  async delete(id: string): Promise<{ id: string; object: 'product_category'; deleted: true }> {
    return deleteRecord(this.tx, this.events, this.categories, id, {
      present: toCategoryResource,
      event: 'product.category.deleted',
      object: 'product_category',
      check: async (category) => {
        const [products, children] = await Promise.all([
          this.products.countInCategory(category.id),
          this.categories.countChildren(category.id),
        ]);
        if (products > 0 || children > 0) {
          throw new CatalogError('resource_conflict', {
            hint: `Product category '${id}' still has ${products} product(s) and ${children} child categor${children === 1 ? 'y' : 'ies'}; move them first.`,
          });
        }
      },
    });
  }
}
