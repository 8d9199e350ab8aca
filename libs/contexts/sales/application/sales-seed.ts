import { Injectable, OnModuleInit } from '@nestjs/common';
import { ProductsService } from '#contexts/catalog';
import { QaSeedService } from '#platform/seed/qa-seed.service';
import { AccountsService } from './accounts.service';
import { OrderResource } from './order.presenter';
import { OrderLines } from './order-lines.service';
import { OrdersService } from './orders.service';
import { ConfirmOrder } from './orders/confirm-order';
import { PricingPoliciesService } from './pricing-policies.service';

/**
 * The sales fixtures of the QA seed: account_id with payment_method_ids, pricing_policy_id and the
 * order fixtures. Runs after inventory's location seed (the confirmed orders commit stock there).
 */
@Injectable()
export class SalesSeed implements OnModuleInit {
  constructor(
    private readonly seed: QaSeedService,
    private readonly accounts: AccountsService,
    private readonly policies: PricingPoliciesService,
    private readonly orders: OrdersService,
    private readonly confirmOrder: ConfirmOrder,
    private readonly orderLines: OrderLines,
    private readonly products: ProductsService,
  ) {}

  onModuleInit(): void {
    this.seed.register({
      name: 'sales',
      seed: async ({ as }) => {
        const testOrderId = await as('test', () => this.seedTestOrder());
        const fixtures = await as('live', async () => {
          const account = await this.accounts.create({
            name: 'QA Customer Inc',
            email: 'buyer@qa-customer.example',
            credit_limit: 10000,
          });
          await this.accounts.addresses.create(account.id, {
            type: 'billing',
            line1: '1 Main St',
            city: 'Springfield',
            country: 'US',
          });
          await this.accounts.contacts.create(account.id, {
            name: 'Quinn Buyer',
            email: 'quinn@qa-customer.example',
          });
          const first = await this.accounts.paymentMethods.create(account.id, {
            type: 'card',
            card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 5 },
          });
          const second = await this.accounts.paymentMethods.create(account.id, {
            type: 'bank_account',
            bank_account: { bank_name: 'QA Bank', last4: '6789' },
          });
          const policy = await this.policies.create({
            name: 'QA customer 10% off',
            kind: 'percentage_off',
            value: 10,
            account_id: account.id,
          });
          return {
            account_id: account.id,
            payment_method_ids: [first.id, second.id],
            pricing_policy_id: policy.id,
            ...(await this.seedOrders(account.id)),
          };
        });
        return { ...fixtures, test_order_id: testOrderId };
      },
    });
  }

  /** quote_id, sales_order, revised_order, serial_order (docs/reference/qa-seed.md). */
  private async seedOrders(accountId: string): Promise<Record<string, unknown>> {
    const widget = (await this.products.list({ sku: 'QA-WIDGET-001', limit: 1 }, '/v1/products')).data[0];
    if (!widget) throw new Error('The catalog seed must create QA-WIDGET-001 before the sales seed runs');
    const serialProduct = await this.products.create({
      sku: 'QA-SERIAL-001',
      name: 'QA Serialized Scanner',
      type: 'standard',
      list_price: 120,
      serial_tracked: true,
    });
    const secondLine = { description: 'QA Widget, second batch', quantity: 3 };
    const confirmedOrder = async () => {
      const draft = await this.orders.create({
        document_type: 'sales_order',
        account_id: accountId,
        lines: [
          { product_id: widget.id, quantity: 3 },
          { product_id: widget.id, ...secondLine },
        ],
      });
      return this.confirmOrder.confirm(draft.id);
    };
    const shape = (o: OrderResource) => ({
      id: o.id,
      items: o.lines.map((l) => ({ id: l.id, product_id: l.product_id, quantity: l.quantity })),
    });
    const quote = await this.orders.create({
      document_type: 'quote',
      account_id: accountId,
      lines: [{ product_id: widget.id, quantity: 2 }],
    });
    const salesOrder = await confirmedOrder();
    let revised = await confirmedOrder();
    await this.orders.send(revised.id);
    revised = await this.orderLines.updateLine(revised.id, revised.lines[1].id, { discount_percent: 5 });
    const serialDraft = await this.orders.create({
      document_type: 'sales_order',
      account_id: accountId,
      lines: [{ product_id: serialProduct.id, quantity: 2 }],
    });
    const serialOrder = await this.confirmOrder.confirm(serialDraft.id);
    // Two issued, unpaid invoices: receivables for the bank_deposit fixture to pay.
    for (const quantity of [2, 1]) {
      const invoice = await this.orders.create({
        document_type: 'invoice',
        account_id: accountId,
        lines: [{ product_id: widget.id, quantity }],
      });
      await this.confirmOrder.confirm(invoice.id);
    }
    return {
      quote_id: quote.id,
      sales_order: shape(salesOrder),
      revised_order: shape(revised),
      // Serial records come with the inventory context; it fills `serials` when it allocates them.
      serial_order: {
        id: serialOrder.id,
        item_id: serialOrder.lines[0].id,
        product_id: serialProduct.id,
        serials: [] as string[],
      },
    };
  }

  /** test_order_id: a confirmed sales order in test mode, with its own account and product. */
  private async seedTestOrder(): Promise<string> {
    const account = await this.accounts.create({
      name: 'QA Test-mode Customer',
      email: 'test-buyer@qa-customer.example',
    });
    const product = await this.products.create({
      sku: 'QA-TEST-WIDGET',
      name: 'QA Test Widget',
      type: 'standard',
      list_price: 10,
    });
    const draft = await this.orders.create({
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: product.id, quantity: 3 }],
    });
    return (await this.confirmOrder.confirm(draft.id)).id;
  }
}
