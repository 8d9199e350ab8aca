import type { LedgerPostingService } from '#contexts/accounting';
import type { ActivityLog } from '#platform/activity/activity-log';
import type { TransactionHost } from '#platform/persistence/transaction-host';
import type { EntityProfiles } from '#platform/tenancy/entity-profiles';
import type { IntegrationRecord } from '../infrastructure/integration.entity';
import type {
  IntegrationImportRepository,
  IntegrationRepository,
  IntegrationRunRepository,
} from '../infrastructure/integration.repository';
import type { ConnectorAdapters } from './connector-adapters';
import type { RemoteOrder } from './connector.port';
import type { ImportStorefrontOrder } from './import-storefront-order';
import { OrderImportService } from './order-import.service';

/** A transaction host that only tracks whether a transaction is open. */
class FakeTransactions {
  inTransaction = false;
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.inTransaction;
    this.inTransaction = true;
    try {
      return await fn();
    } finally {
      this.inTransaction = outer;
    }
  }
}

const remote = (externalId: string): RemoteOrder =>
  ({ external_id: externalId, currency: 'USD', lines: [] }) as unknown as RemoteOrder;

function setUp() {
  const tx = new FakeTransactions();
  const calls: string[] = [];
  const integration = {
    id: 'int_1',
    type: 'storefront',
    status: 'connected',
    lastImportAt: null,
    settings: {},
  } as unknown as IntegrationRecord;
  const run = {
    id: 'run_1',
    integrationId: 'int_1',
    kind: 'order_import',
    trigger: 'manual',
    errors: [],
    finishedAt: null,
    livemode: false,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  const adapter = {
    fetchOrders: async () => {
      calls.push(`fetchOrders in transaction: ${tx.inTransaction}`);
      return [remote('A'), remote('B')];
    },
    fetchPayouts: async () => {
      calls.push(`fetchPayouts in transaction: ${tx.inTransaction}`);
      return [];
    },
  };
  const importOrder = {
    execute: async (_i: IntegrationRecord, runId: string, order: RemoteOrder) => {
      calls.push(`import ${order.external_id} of ${runId}`);
      return 'imported' as const;
    },
  };
  const service = new OrderImportService(
    {
      getById: async () => integration,
      getForUpdate: async () => integration,
      save: async () => integration,
    } as unknown as IntegrationRepository,
    {
      create: async () => run,
      getForUpdate: async () => run,
      save: async (r: typeof run) => r,
    } as unknown as IntegrationRunRepository,
    {} as IntegrationImportRepository,
    { of: () => ({ adapter, connection: {} }) } as unknown as ConnectorAdapters,
    tx as unknown as TransactionHost,
    importOrder as unknown as ImportStorefrontOrder,
    {} as LedgerPostingService,
    {} as ActivityLog,
    {} as EntityProfiles,
  );
  return { service, calls, tx };
}

describe('OrderImportService run', () => {
  it('fetches from the connector outside any transaction, then hands each order to the import use case', async () => {
    const { service, calls } = setUp();
    const result = await service.importNow('int_1');
    expect(calls).toEqual([
      'fetchOrders in transaction: false',
      'import A of run_1',
      'import B of run_1',
      'fetchPayouts in transaction: false',
    ]);
    expect(result).toMatchObject({ status: 'succeeded', counts: { orders_imported: 2, orders_skipped: 0 } });
  });

  it('refuses to start inside a transaction, before calling the connector', async () => {
    const { service, calls, tx } = setUp();
    await expect(tx.run(() => service.importNow('int_1'))).rejects.toThrow('outside any transaction');
    expect(calls).toEqual([]);
  });
});
