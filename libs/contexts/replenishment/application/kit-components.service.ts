import { Injectable, OnModuleInit } from '@nestjs/common';
import { KitComponentLine, KitLines } from '#contexts/sales';
import { ProductFactsService } from '#contexts/catalog';
import { notFound } from '#platform/errors/domain-error';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { assertKitParent, assertNoCycle } from '../domain/kit-components';
import { invalidParam } from '#platform/errors/domain-error';
import { KitComponentRecord } from '../infrastructure/kit-component.entity';
import { KitComponentRepository } from '../infrastructure/kit-component.repository';

/** Bills of materials: the components of a kit product, with the quantity per kit. */
@Injectable()
export class KitComponentsService implements OnModuleInit {
  constructor(
    private readonly components: KitComponentRepository,
    private readonly products: ProductFactsService,
    private readonly tx: TransactionHost,
    private readonly kitLines: KitLines,
  ) {}

  /** Sales orders carry a kit's components as child lines of the kit line: sales asks here. */
  onModuleInit(): void {
    this.kitLines.register({ componentsOf: (ids) => this.componentLines(ids) });
  }

  /** The component lines of kit products (only kits with components appear). */
  async componentLines(productIds: readonly string[]): Promise<Map<string, KitComponentLine[]>> {
    const components = await this.components.ofKits(productIds);
    if (components.length === 0) return new Map();
    const facts = await this.products.factsOf(components.map((c) => c.componentProductId));
    const result = new Map<string, KitComponentLine[]>();
    for (const c of components) {
      const product = facts.get(c.componentProductId);
      const line: KitComponentLine = {
        productId: c.componentProductId,
        description: product ? `${product.name} (kit component)` : 'Kit component',
        quantityPerKit: c.quantity,
      };
      result.set(c.kitProductId, [...(result.get(c.kitProductId) ?? []), line]);
    }
    return result;
  }

  private async kit(productId: string): Promise<void> {
    const product = await this.products.findFacts(productId);
    if (!product) throw notFound('product', productId);
    assertKitParent(product);
  }

  async add(kitProductId: string, input: { component_product_id: string; quantity: number }) {
    return this.tx.run(async () => {
      await this.kit(kitProductId);
      await this.components.lockGraph();
      const component = await this.products.findFacts(input.component_product_id);
      if (!component) {
        throw invalidParam(
          'component_product_id',
          `No product with id '${input.component_product_id}' exists for this entity and mode.`,
        );
      }
      if (component.type === 'service') {
        throw invalidParam(
          'component_product_id',
          `Product '${component.id}' is a service; components are stocked products.`,
        );
      }
      const edges = await this.components.edges();
      const children = new Map<string, string[]>();
      for (const e of edges) children.set(e.kit, [...(children.get(e.kit) ?? []), e.component]);
      assertNoCycle(kitProductId, component.id, (id) => children.get(id) ?? []);
      if (await this.components.findPair(kitProductId, component.id)) {
        throw invalidParam(
          'component_product_id',
          `Product '${component.id}' is already a component of this kit; update its quantity instead.`,
        );
      }
      return this.components.create({
        kitProductId,
        componentProductId: component.id,
        quantity: input.quantity,
      });
    });
  }

  async list(kitProductId: string, query: ListQueryDto) {
    await this.kit(kitProductId);
    return this.components.listOfKit(kitProductId, query);
  }

  async retrieve(kitProductId: string, id: string): Promise<KitComponentRecord> {
    await this.kit(kitProductId);
    return this.components.getOfKit(kitProductId, id);
  }

  async update(
    kitProductId: string,
    id: string,
    changes: { quantity?: number },
  ): Promise<KitComponentRecord> {
    return this.tx.run(async () => {
      await this.kit(kitProductId);
      const record = await this.components.getOfKit(kitProductId, id);
      if (changes.quantity !== undefined) record.quantity = changes.quantity;
      return this.components.save(record);
    });
  }

  async remove(
    kitProductId: string,
    id: string,
  ): Promise<{ id: string; object: 'kit_component'; deleted: true }> {
    return this.tx.run(async () => {
      await this.kit(kitProductId);
      const record = await this.components.getOfKit(kitProductId, id);
      await this.components.delete(record);
      return { id: record.id, object: 'kit_component', deleted: true };
    });
  }

  /** The bill of materials of a kit (empty for a product without components). */
  async componentsOf(kitProductId: string): Promise<KitComponentRecord[]> {
    return this.components.ofKits([kitProductId]);
  }
}
