import { Inject, Injectable } from '@nestjs/common';
import { StockService, LOCATIONS_SERVICE } from '#contexts/inventory';
import { AccountingSettingsService, LedgerPostingService } from '#contexts/accounting';
import { DomainError } from '#platform/errors/domain-error';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { ProductFactsService } from '#contexts/catalog';
import { OrderLineFactsService } from '#contexts/sales';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { buildTransition, componentDraws } from '../domain/build';
import { invalidParam } from '#platform/errors/domain-error';
import { ReplenishmentError } from '../domain/replenishment-error';
import { BuildRecord } from '../infrastructure/build.entity';
import { BuildRepository } from '../infrastructure/build.repository';
import { KitComponentRepository } from '../infrastructure/kit-component.repository';

export interface BuildInput {
  kit_product_id: string;
  quantity: number;
  location_id: string;
  status?: 'draft' | 'posted';
  order_line_id?: string | null;
  notes?: string | null;
}

/** Builds: assemble kits from their components (draft -> posted, or void a draft). */
@Injectable()
export class BuildsService {
  constructor(
    private readonly builds: BuildRepository,
    private readonly components: KitComponentRepository,
    private readonly products: ProductFactsService,
    private readonly orderLines: OrderLineFactsService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
    private readonly stock: StockService,
    private readonly posting: LedgerPostingService,
    private readonly settings: AccountingSettingsService,
    private readonly tx: TransactionHost,
  ) {}

  async create(input: BuildInput): Promise<BuildRecord> {
    return this.tx.run(async () => {
      const kit = await this.products.findFacts(input.kit_product_id);
      if (!kit) {
        throw invalidParam(
          'kit_product_id',
          `No product with id '${input.kit_product_id}' exists for this entity and mode.`,
        );
      }
      if (kit.type !== 'kit') {
        throw invalidParam(
          'kit_product_id',
          `Product '${kit.id}' is of type ${kit.type}; only kits are built.`,
        );
      }
      if (kit.status !== 'active') {
        throw invalidParam(
          'kit_product_id',
          `Product '${kit.id}' is ${kit.status}; only active kits are built.`,
        );
      }
      const bom = await this.components.ofKits([kit.id]);
      if (bom.length === 0) {
        throw invalidParam(
          'kit_product_id',
          `Kit '${kit.id}' has no components (POST /v1/products/${kit.id}/components).`,
        );
      }
      if (!(await this.locations.exists(input.location_id))) {
        throw invalidParam(
          'location_id',
          `No location with id '${input.location_id}' exists for this entity and mode.`,
        );
      }
      if (input.order_line_id) {
        const line = (await this.orderLines.factsOf([input.order_line_id])).get(input.order_line_id);
        if (!line || line.productId !== kit.id || line.documentType !== 'sales_order') {
          throw invalidParam(
            'order_line_id',
            `No sales order line for kit '${kit.id}' with id '${input.order_line_id}' exists for this entity and mode.`,
          );
        }
      }
      const draws = componentDraws(input.quantity, bom);
      const build = await this.builds.create({
        kitProductId: kit.id,
        locationId: input.location_id,
        quantity: input.quantity,
        orderLineId: input.order_line_id ?? null,
        status: 'draft',
        components: draws.map((d, i) => ({
          product_id: d.productId,
          quantity_per_kit: bom[i].quantity,
          quantity: d.quantity,
          unit_cost: null,
          value: null,
        })),
        unitCost: null,
        totalCost: null,
        journalEntryId: null,
        notes: input.notes ?? null,
        postedAt: null,
        voidedAt: null,
      });
      return (input.status ?? 'posted') === 'posted' ? this.postLocked(build) : build;
    });
  }

  async list(query: ListQueryDto) {
    return this.builds.page(query, { url: '' });
  }

  async retrieve(id: string): Promise<BuildRecord> {
    return this.builds.getById(id);
  }

  async post(id: string): Promise<BuildRecord> {
    return this.tx.run(async () => this.postLocked(await this.builds.getForUpdate(id)));
  }

  async void(id: string): Promise<BuildRecord> {
    return this.tx.run(async () => {
      const build = await this.builds.getForUpdate(id);
      build.status = buildTransition('void', build);
      build.voidedAt = new Date();
      return this.builds.save(build);
    });
  }

  /**
   * Draws the components (the bill of materials as it was when the build was drafted) and adds
   * the kits at exactly their value (inventory's StockService.recordBuild), then posts one
   * MANUFACTURING entry (debit and credit inventory at the location). The build is marked
   * posted first, so the demand observer sees a posted build's draws.
   */
  private async postLocked(build: BuildRecord): Promise<BuildRecord> {
    build.status = buildTransition('post', build);
    build.postedAt = new Date();
    await this.builds.save(build);
    // The moving-average cost each component leaves at (balances move only in recordBuild below).
    const unitCosts: string[] = [];
    for (const c of build.components)
      unitCosts.push(await this.stock.currentUnitCost(c.product_id, build.locationId));
    let consumedValue: string;
    try {
      ({ consumedValue } = await this.stock.recordBuild({
        buildId: build.id,
        locationId: build.locationId,
        consumptions: build.components.map((c) => ({ productId: c.product_id, quantity: c.quantity })),
        outputs: [{ productId: build.kitProductId, quantity: build.quantity }],
      }));
    } catch (error) {
      // insufficient_stock names the component that would go below zero in `param`.
      const index = error instanceof DomainError ? /^consumptions\[(\d+)\]/.exec(error.param ?? '') : null;
      if (error instanceof DomainError && error.code === 'insufficient_stock' && index) {
        throw new ReplenishmentError('insufficient_stock', {
          param: build.components[Number(index[1])].product_id,
          hint: error.hint,
          details: error.details,
        });
      }
      throw error;
    }
    const total = money(consumedValue);
    let journalEntryId: string | null = null;
    if (!total.isZero()) {
      const entry = await this.posting.post({
        source_type: 'MANUFACTURING',
        source_id: build.id,
        source_module: 'inventory',
        entry_date: await this.settings.currentBusinessDay(),
        description: `Build of ${build.quantity} kit(s) ${build.kitProductId}`,
        lines: [
          { role: 'inventory', debit: total.abs(), location_id: build.locationId },
          { role: 'inventory', credit: total.abs(), location_id: build.locationId },
        ],
      });
      journalEntryId = entry.id;
    }
    build.components = build.components.map((c, i) => ({
      ...c,
      unit_cost: money(unitCosts[i]).toFixed(4),
      value: money(unitCosts[i]).times(c.quantity).toFixed(4),
    }));
    build.totalCost = total.abs();
    build.unitCost = total.abs().dividedBy(build.quantity).toDecimalPlaces(4);
    build.journalEntryId = journalEntryId;
    return this.builds.save(build);
  }
}
