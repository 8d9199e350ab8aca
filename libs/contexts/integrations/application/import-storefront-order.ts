import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService, signedLine } from '#contexts/accounting';
import { ProductsService } from '#contexts/catalog';
import { AccountsService, OrderLineInput, RevenueRecognition, SalesOrders } from '#contexts/sales';
import { ActivityLog } from '#platform/activity/activity-log';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { connectorOf } from '../domain/connector-types';
import { importPosting, isImportable } from '../domain/import-rules';
import { IntegrationRecord } from '../infrastructure/integration.entity';
import { IntegrationImportRepository } from '../infrastructure/integration.repository';
import { RemoteOrder } from './connector.port';

/** What became of one remote record. */
export type ImportOutcome = 'imported' | 'skipped';

/** The integration's clearing account, else the `channel_clearing` role (receivables on a chart without one). */
export function clearingOf(
  integration: IntegrationRecord,
): { account_id: string } | { role: 'channel_clearing' } {
  return integration.settings.clearing_account_id
    ? { account_id: integration.settings.clearing_account_id }
    : { role: 'channel_clearing' };
}

/**
 * Import one storefront order, already fetched from the connector (no connector call is made
 * here, so none runs inside the transaction): an order of a status the integration imports, not
 * imported before and in the entity's currency becomes a draft sales order of the account with
 * its email (created when none matches), its lines naming the catalog's active products by SKU.
 * The channel took the customer's money, so the import bills every unit and posts the
 * connector's import entry (docs/reference/accounting.md: debit clearing with the order total,
 * credit the revenue and tax the recognition rule recognises), dated the remote order's day, in
 * the run's batch. The import row is written first, under a unique index: two replicas or two
 * requests importing the same order make one.
 */
@Injectable()
export class ImportStorefrontOrder {
  constructor(
    private readonly tx: TransactionHost,
    private readonly imported: IntegrationImportRepository,
    private readonly profiles: EntityProfiles,
    private readonly products: ProductsService,
    private readonly accounts: AccountsService,
    private readonly salesOrders: SalesOrders,
    private readonly revenue: RevenueRecognition,
    private readonly ledger: LedgerPostingService,
    private readonly activity: ActivityLog,
  ) {}

  async execute(integration: IntegrationRecord, runId: string, order: RemoteOrder): Promise<ImportOutcome> {
    if (!isImportable(order.financial_status, integration.settings.import_order_statuses)) return 'skipped';
    if (await this.imported.find(integration.id, 'order', order.external_id)) return 'skipped';
    const currency = (await this.profiles.current())?.baseCurrency ?? 'USD';
    if (order.currency.toUpperCase() !== currency)
      throw new Error(
        `The order is in ${order.currency}; only orders in the entity's currency ${currency} are imported.`,
      );
    const lines = await this.salesLines(order);

    return this.tx.run(async () => {
      const mark = await this.imported.create({
        integrationId: integration.id,
        kind: 'order',
        externalId: order.external_id,
        resourceId: null,
        journalEntryId: null,
        runId,
      });
      const salesOrder = await this.salesOrders.create({
        document_type: 'sales_order',
        account_id: await this.customerAccount(order, currency),
        lines,
        notes: `Imported from ${integration.name} order ${order.name}.`,
        metadata: {
          integration_id: integration.id,
          external_order_id: order.external_id,
          external_order_name: order.name,
        },
      });

      const { recognized } = await this.revenue.billedByImport(salesOrder.id);
      const plan = importPosting(salesOrder.total, recognized);
      const entry = await this.ledger.post({
        source_type: connectorOf(integration.type).source_types.order_import as never,
        source_id: salesOrder.id,
        source_module: 'integrations',
        entry_date: order.created_at.slice(0, 10),
        description: `${integration.name} order ${order.name}`,
        lines: [
          {
            ...clearingOf(integration),
            debit: plan.debit_clearing,
            description: `Owed by ${integration.name}`,
          },
          ...signedLine(
            { role: 'revenue' },
            new Decimal(plan.credit_revenue).negated(),
            `Order ${order.name}`,
          ),
          ...signedLine(
            { role: 'tax' },
            new Decimal(plan.credit_tax).negated(),
            `Sales tax of order ${order.name}`,
          ),
        ],
        new_source: true,
        batch_id: runId,
      });

      mark.resourceId = salesOrder.id;
      mark.journalEntryId = entry.id;
      await this.imported.save(mark);
      await this.activity.record({
        method: 'POST',
        path: `/v1/integrations/${integration.id}/import-orders`,
        resourceType: 'order',
        resourceId: salesOrder.id,
        status: 201,
      });
      return 'imported' as const;
    });
  }

  /** The remote lines as sales-order lines at the channel's prices, a known SKU naming its active product. */
  private async salesLines(order: RemoteOrder): Promise<OrderLineInput[]> {
    const lines: OrderLineInput[] = [];
    for (const line of order.lines) {
      const productId = line.sku ? await this.productBySku(line.sku) : undefined;
      lines.push({
        ...(productId ? { product_id: productId } : {}),
        description: line.sku ? `${line.title} (${line.sku})` : line.title,
        quantity: line.quantity,
        unit_price: new Decimal(line.price).toNumber(),
      });
    }
    return lines;
  }

  private async productBySku(sku: string): Promise<string | undefined> {
    const found = await this.products.list({ sku, status: 'active', limit: 1 } as never, '/v1/products');
    return found.data[0]?.id;
  }

  /** The active account with the order's email, or a new one named after the customer. */
  private async customerAccount(order: RemoteOrder, currency: string): Promise<string> {
    if (order.email) {
      const found = await this.accounts.list({ email: order.email, limit: 1 } as never, '/v1/accounts');
      if (found.data.length > 0) return found.data[0].id;
    }
    const created = await this.accounts.create({
      name: order.customer_name.slice(0, 200) || 'Storefront customer',
      email: order.email,
      currency,
      metadata: { source: 'integration' },
    });
    return created.id;
  }
}
