import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DomainError } from '#platform/errors/domain-error';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { money } from '#platform/domain/money';
import { PricedLine } from '../domain/pricing';
import { lineAmounts } from '../domain/order-totals';
import { invalidParam } from '#platform/errors/domain-error';
import { SalesError } from '../domain/sales-error';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import type { OrderLineInput } from '../domain/order';
import { PricingPoliciesService } from './pricing-policies.service';

interface ProductView {
  id: string;
  name: string;
  status: string;
  list_price: number;
  category_id: string | null;
}

const MAX_AMOUNT = money('1e15');

/** A priced order line, not yet written. */
export type PricedLineDraft = Omit<
  OrderLineRecord,
  'id' | 'entityId' | 'livemode' | 'createdAt' | 'updatedAt' | 'version'
>;

/** The distinct product ids the lines name. */
const productIdsOf = (lineLists: readonly OrderLineInput[][]): string[] => [
  ...new Set(lineLists.flat().flatMap((l) => (typeof l.product_id === 'string' ? [l.product_id] : []))),
];

/** Prices order lines from the catalog's products and the applicable pricing policies. */
@Injectable()
export class OrderLinePricing {
  constructor(
    private readonly pricing: PricingPoliciesService,
    private readonly resources: ResourceRegistry,
  ) {}

  /**
   * Prices lines: with a product and no unit_price, the product's list price with the best
   * applicable pricing policy; the list price and the policy id are copied onto the line.
   * `param` is `lines` (errors name `lines[i].field`) or `line` (a single line body: `field`).
   */
  async priceLines(
    record: OrderRecord,
    inputs: OrderLineInput[],
    param: 'lines' | 'line',
    firstPosition: number,
  ): Promise<PricedLineDraft[]> {
    const products = await this.loadProducts(productIdsOf([inputs]));
    const priced = new Map<string, PricedLine>();
    return this.price(record, inputs, param, firstPosition, products, async (product, listPrice) => {
      let quote = priced.get(product.id);
      if (!quote) {
        quote = await this.pricing.priceLine(listPrice, 1, {
          accountId: record.accountId,
          productId: product.id,
          productCategoryId: product.category_id,
        });
        priced.set(product.id, quote);
      }
      return quote;
    });
  }

  /**
   * priceLines() of the lines of many new orders (positions from 0, errors naming `lines[i]`), with
   * one read of their products and one of the pricing policies that may apply to them. Per order,
   * its priced lines or the DomainError that refused them.
   */
  async priceOrders(
    orders: readonly { record: OrderRecord; inputs: OrderLineInput[] }[],
  ): Promise<(PricedLineDraft[] | DomainError)[]> {
    const productIds = productIdsOf(orders.map((o) => o.inputs));
    const products = await this.loadProducts(productIds);
    const accountIds = [...new Set(orders.flatMap((o) => (o.record.accountId ? [o.record.accountId] : [])))];
    const pricer = await this.pricing.pricerFor(accountIds, productIds);
    const results: (PricedLineDraft[] | DomainError)[] = [];
    for (const { record, inputs } of orders) {
      try {
        results.push(
          await this.price(record, inputs, 'lines', 0, products, (product, listPrice) =>
            pricer(listPrice, 1, {
              accountId: record.accountId,
              productId: product.id,
              productCategoryId: product.category_id,
            }),
          ),
        );
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push(error);
      }
    }
    return results;
  }

  /** Prices lines with these products, `quote` giving the policy price of a product's list price. */
  private async price(
    record: OrderRecord,
    inputs: OrderLineInput[],
    param: 'lines' | 'line',
    firstPosition: number,
    products: Map<string, ProductView>,
    quote: (product: ProductView, listPrice: Decimal) => PricedLine | Promise<PricedLine>,
  ): Promise<PricedLineDraft[]> {
    const at = (i: number, field: string) => (param === 'lines' ? `lines[${i}].${field}` : field);
    const result = [];
    for (const [i, input] of inputs.entries()) {
      const product = input.product_id ? products.get(input.product_id) : undefined;
      if (input.product_id && !product) {
        throw invalidParam(
          at(i, 'product_id'),
          `No product with id '${input.product_id}' exists for this entity and mode.`,
        );
      }
      if (product && product.status !== 'active') {
        throw invalidParam(
          at(i, 'product_id'),
          `Product '${product.id}' is ${product.status}; only active products can be ordered.`,
        );
      }
      if (!product && !input.description) {
        throw new SalesError('parameter_missing', {
          param: at(i, 'description'),
          hint: 'A line without product_id needs a description.',
        });
      }
      if (!product && input.unit_price === undefined) {
        throw new SalesError('parameter_missing', {
          param: at(i, 'unit_price'),
          hint: 'A line without product_id needs a unit_price.',
        });
      }
      const quantity = money(input.quantity);
      let listPrice: Decimal | null = product ? money(product.list_price) : null;
      let unitPrice: Decimal;
      let policyId: string | null = null;
      if (input.unit_price !== undefined) {
        unitPrice = money(input.unit_price);
      } else {
        const quoted = await quote(product!, listPrice!);
        unitPrice = quoted.unitPrice;
        policyId = quoted.appliedPolicyId;
        listPrice = quoted.listPrice;
      }
      const amounts = lineAmounts({
        quantity,
        unitPrice,
        discountPercent: input.discount_percent ?? 0,
        discountAmount: input.discount_amount ?? 0,
        taxRate: input.tax_rate ?? 0,
      });
      if (amounts.subtotal.gte(MAX_AMOUNT)) {
        throw invalidParam(
          at(i, 'quantity'),
          `quantity × unit_price must stay below ${MAX_AMOUNT.toFixed(0)}.`,
        );
      }
      result.push({
        orderId: record.id,
        position: firstPosition + i,
        productId: product ? product.id : null,
        description: input.description ?? product!.name,
        quantity,
        listPrice,
        unitPrice,
        pricingPolicyId: policyId,
        discountPercent: money(input.discount_percent ?? 0),
        discountAmount: money(input.discount_amount ?? 0),
        taxRate: money(input.tax_rate ?? 0),
        subtotal: amounts.subtotal,
        discountTotal: amounts.discountTotal,
        taxTotal: amounts.taxTotal,
        total: amounts.total,
      });
    }
    return result;
  }

  /** Products through the catalog's registered batch loader (the catalog's public read model, never its tables). */
  private async loadProducts(ids: string[]): Promise<Map<string, ProductView>> {
    if (ids.length === 0) return new Map();
    const load = this.resources.get('product')?.load;
    if (!load) throw new Error('The catalog context has not registered the product resource');
    return (await load(ids)) as Map<string, ProductView>;
  }
}
