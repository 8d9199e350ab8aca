import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService, signedLine } from '#contexts/accounting';
import { ProductsService } from '#contexts/catalog';
import { AccountsService, SalesOrders, RevenueRecognition } from '#contexts/sales';
import { ActivityLog } from '#platform/activity/activity-log';
import { DomainError } from '#platform/errors/domain-error';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { connectorOf } from '../domain/connector-types';
import { importPosting, isImportable, payoutPosting } from '../domain/import-rules';
import { IntegrationRecord, RunError, RunTrigger } from '../infrastructure/integration.entity';
import {
  IntegrationImportRepository,
  IntegrationRepository,
  IntegrationRunRepository,
} from '../infrastructure/integration.repository';
import { ConnectorAdapters } from './connector-adapters';
import { ConnectorFailure, RemoteOrder, RemotePayout } from './connector.port';
import { IntegrationRunResource, toRunResource } from './integration.presenter';

/** Overlap of consecutive pulls: orders created just before the last pull started are asked again (imports are idempotent). */
const OVERLAP_MS = 60 * 60 * 1000;

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string; driverError?: { code?: string } })?.code === UNIQUE_VIOLATION ||
  (error as { driverError?: { code?: string } })?.driverError?.code === UNIQUE_VIOLATION;

type Outcome = 'imported' | 'skipped';

/**
 * Order and payout import: pulls the remote orders and payouts since the last import through the
 * integration's adapter. Each new order of an imported status becomes a sales order of the
 * account with its email (created when none matches) through sales' services, and posts the
 * connector's import entry (order total: debit clearing, credit the revenue and tax the import
 * recognises under sales' rule); each new payout posts
 * the connector's payout entry (credit clearing gross, debit fees, debit bank net). An external
 * id is imported once per integration: its import row is written first in the same transaction,
 * under a unique index, so two replicas or two requests importing the same order make one. The
 * entries of one run share the run's id as their `batch_id`.
 */
@Injectable()
export class OrderImportService {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly runs: IntegrationRunRepository,
    private readonly imported: IntegrationImportRepository,
    private readonly adapters: ConnectorAdapters,
    private readonly tx: TransactionHost,
    private readonly accounts: AccountsService,
    private readonly orders: SalesOrders,
    private readonly products: ProductsService,
    private readonly ledger: LedgerPostingService,
    private readonly activity: ActivityLog,
    private readonly profiles: EntityProfiles,
    private readonly revenue: RevenueRecognition,
  ) {}

  /** `POST /integrations/{id}/import-orders`: runs an import now and answers its run. */
  async importNow(id: string): Promise<IntegrationRunResource> {
    const integration = await this.integrations.getById(id);
    this.adapters.of(integration); // 409 invalid_state when disconnected
    return this.run(integration, 'manual');
  }

  /** Every connected integration of every entity and mode: what a scheduled round imports. */
  connected(): Promise<{ id: string; entityId: string; livemode: boolean }[]> {
    return this.integrations.allConnected();
  }

  /** The scheduled pull of one integration (the caller runs as its entity and mode). */
  async importScheduled(id: string): Promise<IntegrationRunResource | undefined> {
    const integration = await this.integrations.findById(id);
    if (!integration || integration.status !== 'connected') return undefined;
    return this.run(integration, 'schedule');
  }

  private async run(integration: IntegrationRecord, trigger: RunTrigger): Promise<IntegrationRunResource> {
    const startedAt = new Date();
    const run = await this.tx.run(() =>
      this.runs.create({
        integrationId: integration.id,
        kind: 'order_import',
        trigger,
        status: 'running',
        ordersImported: 0,
        ordersSkipped: 0,
        payoutsImported: 0,
        payoutsSkipped: 0,
        listingsSynced: 0,
        errors: [],
        finishedAt: null,
      }),
    );
    const errors: RunError[] = [];
    const counts = { ordersImported: 0, ordersSkipped: 0, payoutsImported: 0, payoutsSkipped: 0 };
    let failed = false;
    const since = integration.lastImportAt
      ? new Date(integration.lastImportAt.getTime() - OVERLAP_MS).toISOString()
      : null;
    const capabilities = connectorOf(integration.type).capabilities;
    try {
      const { adapter, connection } = this.adapters.of(integration);
      const orders = await adapter.fetchOrders(connection, since);
      for (const order of orders) {
        const outcome = await this.guarded(errors, order.external_id, () =>
          this.importOrder(integration, run.id, order),
        );
        if (outcome === 'imported') counts.ordersImported++;
        else counts.ordersSkipped++;
      }
      if (capabilities.includes('payout_import')) {
        const payouts = await adapter.fetchPayouts(connection, since);
        for (const payout of payouts) {
          const outcome = await this.guarded(errors, payout.external_id, () =>
            this.importPayout(integration, run.id, payout),
          );
          if (outcome === 'imported') counts.payoutsImported++;
          else counts.payoutsSkipped++;
        }
      }
    } catch (error) {
      failed = true;
      errors.push({
        external_id: null,
        code: error instanceof ConnectorFailure ? `connector_${error.kind}` : 'import_failed',
        message:
          error instanceof ConnectorFailure ? error.message : 'The import stopped on an unexpected failure.',
      });
    }
    return this.tx.run(async () => {
      const locked = await this.runs.getForUpdate(run.id);
      Object.assign(locked, counts, {
        status: failed ? 'failed' : 'succeeded',
        errors,
        finishedAt: new Date(),
      });
      const saved = await this.runs.save(locked);
      if (!failed) {
        const current = await this.integrations.getForUpdate(integration.id);
        if (!current.lastImportAt || current.lastImportAt < startedAt) {
          current.lastImportAt = startedAt;
          await this.integrations.save(current);
        }
      }
      return toRunResource(saved);
    });
  }

  /** One record's import: a rule it breaks is listed in the run's errors (and counted skipped), the run goes on. */
  private async guarded(
    errors: RunError[],
    externalId: string,
    work: () => Promise<Outcome>,
  ): Promise<Outcome> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) return 'skipped';
      if (error instanceof DomainError)
        errors.push({ external_id: externalId, code: error.code, message: error.message });
      else
        errors.push({
          external_id: externalId,
          code: 'import_failed',
          message: error instanceof Error ? error.message.slice(0, 500) : 'The record could not be imported.',
        });
      return 'skipped';
    }
  }

  private async baseCurrency(): Promise<string> {
    return (await this.profiles.current())?.baseCurrency ?? 'USD';
  }

  private async importOrder(
    integration: IntegrationRecord,
    runId: string,
    order: RemoteOrder,
  ): Promise<Outcome> {
    if (!isImportable(order.financial_status, integration.settings.import_order_statuses)) return 'skipped';
    if (await this.imported.find(integration.id, 'order', order.external_id)) return 'skipped';
    const base = await this.baseCurrency();
    if (order.currency.toUpperCase() !== base)
      throw new Error(
        `The order is in ${order.currency}; only orders in the entity's currency ${base} are imported.`,
      );
    return this.tx.run(async () => {
      const mark = await this.imported.create({
        integrationId: integration.id,
        kind: 'order',
        externalId: order.external_id,
        resourceId: null,
        journalEntryId: null,
        runId,
      });
      const accountId = await this.accountFor(order, base);
      const lines = [];
      for (const line of order.lines) {
        const productId = line.sku ? await this.productBySku(line.sku) : undefined;
        lines.push({
          ...(productId ? { product_id: productId } : {}),
          description: line.sku ? `${line.title} (${line.sku})` : line.title,
          quantity: line.quantity,
          unit_price: new Decimal(line.price).toNumber(),
        });
      }
      const created = await this.orders.create({
        document_type: 'sales_order',
        account_id: accountId,
        lines,
        notes: `Imported from ${integration.name} order ${order.name}.`,
        metadata: {
          integration_id: integration.id,
          external_order_id: order.external_id,
          external_order_name: order.name,
        },
      });
      // The channel was paid: the import bills every unit, and the rule says what that recognises.
      const { recognized } = await this.revenue.billedByImport(created.id);
      const plan = importPosting(created.total, recognized);
      const entry = await this.ledger.post({
        source_type: connectorOf(integration.type).source_types.order_import as never,
        source_id: created.id,
        source_module: 'integrations',
        entry_date: order.created_at.slice(0, 10),
        description: `${integration.name} order ${order.name}`,
        lines: [
          {
            ...this.clearing(integration),
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
      mark.resourceId = created.id;
      mark.journalEntryId = entry.id;
      await this.imported.save(mark);
      await this.activity.record({
        method: 'POST',
        path: `/v1/integrations/${integration.id}/import-orders`,
        resourceType: 'order',
        resourceId: created.id,
        status: 201,
      });
      return 'imported' as const;
    });
  }

  private async importPayout(
    integration: IntegrationRecord,
    runId: string,
    payout: RemotePayout,
  ): Promise<Outcome> {
    if (await this.imported.find(integration.id, 'payout', payout.external_id)) return 'skipped';
    const plan = payoutPosting(payout);
    const base = await this.baseCurrency();
    if (payout.currency.toUpperCase() !== base)
      throw new Error(
        `The payout is in ${payout.currency}; only payouts in the entity's currency ${base} are imported.`,
      );
    const feeAccount = integration.settings.fee_account_id;
    if (new Decimal(plan.debit_fees).gt(0) && !feeAccount)
      throw new Error('The payout has fees and the integration has no settings.fee_account_id.');
    return this.tx.run(async () => {
      const mark = await this.imported.create({
        integrationId: integration.id,
        kind: 'payout',
        externalId: payout.external_id,
        resourceId: null,
        journalEntryId: null,
        runId,
      });
      const bank = integration.settings.bank_account_id
        ? { account_id: integration.settings.bank_account_id }
        : { role: 'cash' as const };
      const lines = [
        { ...bank, debit: plan.debit_bank, description: `Net payout ${payout.external_id}` },
        ...(new Decimal(plan.debit_fees).gt(0)
          ? [{ account_id: feeAccount!, debit: plan.debit_fees, description: `${integration.name} fees` }]
          : []),
        {
          ...this.clearing(integration),
          credit: plan.credit_clearing,
          description: `Gross payout ${payout.external_id}`,
        },
      ];
      const entry = await this.ledger.post({
        source_type: connectorOf(integration.type).source_types.payout_import as never,
        source_id: mark.id,
        source_module: 'integrations',
        entry_date: payout.date.slice(0, 10),
        description: `${integration.name} payout ${payout.external_id}`,
        lines,
        new_source: true,
        batch_id: runId,
      });
      mark.journalEntryId = entry.id;
      mark.resourceId = entry.id;
      await this.imported.save(mark);
      await this.activity.record({
        method: 'POST',
        path: `/v1/integrations/${integration.id}/import-orders`,
        resourceType: 'journal_entry',
        resourceId: entry.id,
        status: 201,
      });
      return 'imported' as const;
    });
  }

  /** The integration's clearing account, else the `channel_clearing` role (receivables on a chart without one). */
  private clearing(integration: IntegrationRecord): { account_id: string } | { role: 'channel_clearing' } {
    return integration.settings.clearing_account_id
      ? { account_id: integration.settings.clearing_account_id }
      : { role: 'channel_clearing' };
  }

  /** The active account with the order's email, or a new one named after the customer. */
  private async accountFor(order: RemoteOrder, currency: string): Promise<string> {
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

  private async productBySku(sku: string): Promise<string | undefined> {
    const found = await this.products.list({ sku, status: 'active', limit: 1 } as never, '/v1/products');
    return found.data[0]?.id;
  }
}
