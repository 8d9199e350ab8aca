import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { LedgerPostingService } from '#contexts/accounting';
import { ActivityLog } from '#platform/activity/activity-log';
import { DomainError } from '#platform/errors/domain-error';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { connectorOf } from '../domain/connector-types';
import { payoutPosting } from '../domain/import-rules';
import { IntegrationRecord, RunError, RunTrigger } from '../infrastructure/integration.entity';
import {
  IntegrationImportRepository,
  IntegrationRepository,
  IntegrationRunRepository,
} from '../infrastructure/integration.repository';
import { ConnectorAdapters } from './connector-adapters';
import { ConnectorFailure, RemotePayout } from './connector.port';
import { clearingOf, ImportOutcome, ImportStorefrontOrder } from './import-storefront-order';
import { IntegrationRunResource, toRunResource } from './integration.presenter';

/** Overlap of consecutive pulls: orders created just before the last pull started are asked again (imports are idempotent). */
const OVERLAP_MS = 60 * 60 * 1000;

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string; driverError?: { code?: string } })?.code === UNIQUE_VIOLATION ||
  (error as { driverError?: { code?: string } })?.driverError?.code === UNIQUE_VIOLATION;

/**
 * An import run (`POST /integrations/{id}/import-orders` and the scheduled pull): the run is
 * recorded, the remote orders and payouts since the last import are fetched through the
 * integration's adapter first, outside any transaction, then each is written in a transaction of
 * its own: an order by ImportStorefrontOrder, a payout by the connector's payout entry (credit
 * clearing gross, debit fees, debit bank net). An external id is imported once per integration:
 * its import row is written first in the same transaction, under a unique index, so two replicas
 * or two requests importing the same order make one. The entries of one run share the run's id
 * as their `batch_id`; a record that breaks a rule is listed in the run's errors and the run goes on.
 */
@Injectable()
export class OrderImportService {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly runs: IntegrationRunRepository,
    private readonly imported: IntegrationImportRepository,
    private readonly adapters: ConnectorAdapters,
    private readonly tx: TransactionHost,
    private readonly importOrder: ImportStorefrontOrder,
    private readonly ledger: LedgerPostingService,
    private readonly activity: ActivityLog,
    private readonly profiles: EntityProfiles,
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
    // A slow or hanging connector must never hold database locks: the run fetches outside any transaction.
    if (this.tx.inTransaction)
      throw new Error('An import run calls its connector, so it runs outside any transaction.');
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
          this.importOrder.execute(integration, run.id, order),
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
    work: () => Promise<ImportOutcome>,
  ): Promise<ImportOutcome> {
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

  private async importPayout(
    integration: IntegrationRecord,
    runId: string,
    payout: RemotePayout,
  ): Promise<ImportOutcome> {
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
          ...clearingOf(integration),
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
}
