import { Injectable } from '@nestjs/common';
import { ProductFactsService } from '#contexts/catalog';
import { AccountsService } from '#contexts/sales';
import { notFound } from '#platform/errors/domain-error';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { invalidParam } from '#platform/errors/domain-error';
import { ProductVendorRecord } from '../infrastructure/product-vendor.entity';
import { ProductVendorRepository } from '../infrastructure/product-vendor.repository';

export interface ProductVendorInput {
  vendor_account_id: string;
  vendor_sku?: string | null;
  unit_cost?: number | null;
  currency?: string;
  lead_time_days?: number;
  min_order_quantity?: number;
  order_multiple?: number;
  is_preferred?: boolean;
}

export type ProductVendorChanges = Partial<Omit<ProductVendorInput, 'vendor_account_id'>>;

/** The vendors a product is bought from: terms per vendor account, one preferred per product. */
@Injectable()
export class ProductVendorsService {
  constructor(
    private readonly vendors: ProductVendorRepository,
    private readonly products: ProductFactsService,
    private readonly accounts: AccountsService,
    private readonly tx: TransactionHost,
  ) {}

  private async assertProduct(productId: string): Promise<void> {
    if (!(await this.products.findFacts(productId))) throw notFound('product', productId);
  }

  /** The vendor account (an active account of the sales context); its currency is the default. */
  private async vendorAccount(id: string): Promise<{ id: string; currency: string }> {
    const [account] = await this.accounts.getAccounts([id]);
    if (!account || account.status !== 'active') {
      throw invalidParam(
        'vendor_account_id',
        `No active account with id '${id}' exists for this entity and mode.`,
      );
    }
    return { id: account.id, currency: account.currency };
  }

  async create(productId: string, input: ProductVendorInput): Promise<ProductVendorRecord> {
    return this.tx.run(async () => {
      await this.assertProduct(productId);
      await this.vendors.lockProduct(productId);
      const account = await this.vendorAccount(input.vendor_account_id);
      if (await this.vendors.findByAccount(productId, account.id)) {
        throw invalidParam(
          'vendor_account_id',
          `Account '${account.id}' is already a vendor of product '${productId}'; update that product vendor instead.`,
        );
      }
      // Like a first payment method becoming the default: the first vendor is preferred unless told otherwise.
      const first = !(await this.vendors.productHasVendor(productId));
      const isPreferred = input.is_preferred ?? first;
      const record = await this.vendors.create({
        productId,
        vendorAccountId: account.id,
        vendorSku: input.vendor_sku ?? null,
        unitCost: input.unit_cost === null || input.unit_cost === undefined ? null : money(input.unit_cost),
        currency: (input.currency ?? account.currency).toUpperCase(),
        leadTimeDays: input.lead_time_days ?? 0,
        minOrderQuantity: input.min_order_quantity ?? 1,
        orderMultiple: input.order_multiple ?? 1,
        isPreferred: false,
      });
      if (isPreferred) {
        await this.vendors.clearPreferred(productId, record.id);
        record.isPreferred = true;
        return this.vendors.save(record);
      }
      return record;
    });
  }

  async list(productId: string, query: ListQueryDto) {
    await this.assertProduct(productId);
    return this.vendors.listOfProduct(productId, query);
  }

  async retrieve(productId: string, id: string): Promise<ProductVendorRecord> {
    await this.assertProduct(productId);
    return this.vendors.getOfProduct(productId, id);
  }

  async update(productId: string, id: string, changes: ProductVendorChanges): Promise<ProductVendorRecord> {
    return this.tx.run(async () => {
      await this.assertProduct(productId);
      await this.vendors.lockProduct(productId);
      const record = await this.vendors.getOfProduct(productId, id, true);
      if (changes.vendor_sku !== undefined) record.vendorSku = changes.vendor_sku;
      if (changes.unit_cost !== undefined)
        record.unitCost = changes.unit_cost === null ? null : money(changes.unit_cost);
      if (changes.currency !== undefined) record.currency = changes.currency.toUpperCase();
      if (changes.lead_time_days !== undefined) record.leadTimeDays = changes.lead_time_days;
      if (changes.min_order_quantity !== undefined) record.minOrderQuantity = changes.min_order_quantity;
      if (changes.order_multiple !== undefined) record.orderMultiple = changes.order_multiple;
      if (changes.is_preferred !== undefined) {
        if (changes.is_preferred) await this.vendors.clearPreferred(productId, record.id);
        record.isPreferred = changes.is_preferred;
      }
      return this.vendors.save(record);
    });
  }

  async remove(
    productId: string,
    id: string,
  ): Promise<{ id: string; object: 'product_vendor'; deleted: true }> {
    return this.tx.run(async () => {
      await this.assertProduct(productId);
      await this.vendors.lockProduct(productId);
      const record = await this.vendors.getOfProduct(productId, id, true);
      await this.vendors.delete(record);
      return { id: record.id, object: 'product_vendor', deleted: true };
    });
  }
}
