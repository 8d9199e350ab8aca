import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..');

/**
 * One linter for every fixture, with the project's config (eslint.config.mjs), loaded once instead
 * of once per fixture by a new `eslint` process. The config is loaded through Jest's module
 * system: ESLint's own loader imports it dynamically, which Jest's CommonJS runtime cannot.
 */
let eslint: ESLint;
beforeAll(() => {
  const { default: config } = jest.requireActual<{ default: NonNullable<ESLint.Options['baseConfig']> }>(
    '../eslint.config.mjs',
  );
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, baseConfig: config });
});

/** The architecture rules that fire on `code` linted as if it were the file `filePath`. */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages
    .filter((m) => m.ruleId?.startsWith('architecture/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture lint rules (eslint/architecture.mjs)', () => {
  it('refuses a deep import into another context, and accepts its entry file', async () => {
    expect(
      await violations(
        'libs/contexts/inventory/application/fixture.ts',
        "import { OrdersService } from '../../sales/application/orders.service';\nexport const x = OrdersService;\n",
      ),
    ).toEqual([
      "architecture/boundaries: Import the 'sales' context through its entry file (#contexts/sales), not libs/contexts/sales/application/orders.service.",
    ]);
    expect(
      await violations(
        'libs/contexts/inventory/application/fixture.ts',
        "import { OrdersService } from '#contexts/sales';\nimport { StockLedger } from './stock-ledger.service';\nexport const x = [OrdersService, StockLedger];\n",
      ),
    ).toEqual([]);
  });

  it('names another library by its alias, never by a relative climb', async () => {
    expect(
      await violations(
        'libs/contexts/inventory/application/fixture.ts',
        "import { OrdersService } from '../../sales';\nimport { newId } from '../../../platform/persistence/ids';\nexport const x = [OrdersService, newId];\n",
      ),
    ).toEqual([
      'architecture/boundaries: Name another library by its alias (#contexts/sales), not by the relative path ../../sales.',
      'architecture/boundaries: Name another library by its alias (#platform/...), not by the relative path ../../../platform/persistence/ids.',
    ]);
    expect(
      await violations(
        'apps/api/fixture.ts',
        "import { newId } from '#platform/persistence/ids';\nimport { SalesModule } from '#contexts/sales';\nexport const x = [newId, SalesModule];\n",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'libs/platform/http/fixture.ts',
        "import { SalesModule } from '#contexts/sales';\nexport const x = SalesModule;\n",
      ),
    ).toEqual(['architecture/boundaries: The platform imports no bounded context (libs/contexts/sales).']);
  });

  it('refuses a context in the platform, an app in libs, and the forbidden pairs', async () => {
    expect(
      await violations(
        'libs/platform/http/fixture.ts',
        "import { SalesModule } from '#contexts/sales';\nexport const x = SalesModule;\n",
      ),
    ).toEqual(['architecture/boundaries: The platform imports no bounded context (libs/contexts/sales).']);
    expect(
      await violations(
        'libs/contexts/sales/application/fixture.ts',
        "import { AppModule } from '../../../../apps/api/app.module';\nexport const x = AppModule;\n",
      ),
    ).toEqual(['architecture/boundaries: Code under libs/ imports no app (apps/api/app.module).']);
    expect(
      await violations(
        'libs/contexts/accounting/application/fixture.ts',
        "import { WebhooksModule } from '#contexts/webhooks';\nexport const x = WebhooksModule;\n",
      ),
    ).toEqual([
      "architecture/boundaries: The 'accounting' context does not depend on the 'webhooks' context.",
    ]);
    expect(
      await violations(
        'libs/contexts/catalog/http/fixture.ts',
        "export { SalesModule } from '#contexts/sales';\n",
      ),
    ).toEqual(["architecture/boundaries: The 'catalog' context does not depend on the 'sales' context."]);
  });

  it('refuses SQL and TypeORM managers in the domain and application layers, not in infrastructure', async () => {
    const sql =
      "import { EntityManager } from 'typeorm';\nexport async function f(m: EntityManager) {\n  return m.query('SELECT 1');\n}\n";
    expect(await violations('libs/contexts/inventory/application/fixture.ts', sql)).toEqual([
      "architecture/no-sql-outside-infrastructure: No `EntityManager` in application/: the context's infrastructure/ repositories own the database.",
      "architecture/no-sql-outside-infrastructure: No SQL in application/: put `.query(...)` in a repository of the context's infrastructure/.",
    ]);
    expect(
      await violations(
        'libs/contexts/inventory/domain/fixture.ts',
        'export const q = (r: { createQueryBuilder(): void }) => r.createQueryBuilder();\n',
      ),
    ).toHaveLength(1);
    expect(await violations('libs/contexts/inventory/infrastructure/fixture.ts', sql)).toEqual([]);
  });

  it('refuses query-builder chains, getRepository, scopedQuery and column filters in application and domain code, not in infrastructure', async () => {
    const forms: [string, string][] = [
      ['andWhere', "qb.andWhere('r.status = :status', { status: 'open' })"],
      ['where', "qb.where('r.id = :id', { id: '1' })"],
      ['orWhere', "qb.orWhere('r.id IS NULL')"],
      ['orderBy', "qb.orderBy('r.id', 'ASC')"],
      ['addOrderBy', "qb.addOrderBy('r.created_at')"],
      ['leftJoin', "qb.leftJoin('r.lines', 'l')"],
      ['leftJoinAndSelect', "qb.leftJoinAndSelect('r.lines', 'l')"],
      ['innerJoin', "qb.innerJoin('r.lines', 'l')"],
      ['groupBy', "qb.groupBy('r.status')"],
      ['addSelect', "qb.addSelect('count(*)', 'n')"],
      ['setLock', "qb.setLock('pessimistic_write')"],
      ['getMany', 'qb.getMany()'],
      ['getRawOne', 'qb.getRawOne()'],
      ['getRepository', 'm.getRepository(Order)'],
      ['scopedQuery', "repo.scopedQuery('r')"],
    ];
    // One statement per line, so each form's report stands on its own line of the fixture.
    const code = forms
      .map(([, call], i) => `export const f${i} = (qb: any, m: any, repo: any, Order: unknown) => ${call};\n`)
      .join('');
    expect(await violations('libs/contexts/sales/application/fixture.ts', code)).toEqual(
      forms.map(
        ([name]) =>
          `architecture/no-sql-outside-infrastructure: No SQL in application/: put \`.${name}(...)\` in a repository of the context's infrastructure/.`,
      ),
    );
    expect(await violations('libs/contexts/sales/domain/fixture.ts', code)).toHaveLength(forms.length);
    expect(await violations('libs/contexts/sales/infrastructure/fixture.ts', code)).toEqual([]);
    expect(
      await violations(
        'libs/contexts/sales/application/fixture.ts',
        "export const filters = [{ sql: 'status = ?', value: 'open' }];\n",
      ),
    ).toEqual([
      "architecture/no-sql-outside-infrastructure: No SQL in application/: put `{ sql: ... }` in a repository of the context's infrastructure/.",
    ]);
    const builder =
      "import { SelectQueryBuilder } from 'typeorm';\nexport type B = SelectQueryBuilder<object>;\n";
    expect(await violations('libs/contexts/sales/application/fixture.ts', builder)).toEqual([
      "architecture/no-sql-outside-infrastructure: No `SelectQueryBuilder` in application/: the context's infrastructure/ repositories own the database.",
    ]);
    expect(await violations('libs/contexts/sales/infrastructure/fixture.ts', builder)).toEqual([]);
  });

  it('refuses statement ordering and commit timing in application code, not in infrastructure', async () => {
    const timing = [
      "import { combinedWrite, TransactionHost } from '#platform/persistence/transaction-host';",
      "import { together } from '#platform/persistence/together';",
      'export async function f(tx: TransactionHost, a: Promise<unknown>, b: Promise<unknown>) {',
      '  await together([a, b]);',
      '  const write = combinedWrite([]);',
      '  await tx.inOrder([]);',
      '  await tx.sendAtCommit(write!);',
      '  tx.sendWithCommit(write!);',
      '  tx.gather({}, async () => undefined);',
      '}',
    ].join('\n');
    const message = (what: string) =>
      `architecture/no-sql-outside-infrastructure: No statement ordering or commit timing in application/: put \`${what}\` behind a repository or writer method of the context's infrastructure/.`;
    expect(await violations('libs/contexts/fulfillment/application/fixture.ts', timing)).toEqual(
      [
        'together(...)',
        'combinedWrite(...)',
        '.inOrder(...)',
        '.sendAtCommit(...)',
        '.sendWithCommit(...)',
        '.gather(...)',
      ].map(message),
    );
    expect(await violations('libs/contexts/fulfillment/infrastructure/fixture.ts', timing)).toEqual([]);
  });

  it('refuses the commit-timing mechanics by name in application code, not in infrastructure', async () => {
    const timing = [
      "import { LedgerPostingService, PostingBatches, PostingRequest } from '#contexts/accounting';",
      "import { KeyedBatches } from '#platform/persistence/keyed-batches';",
      "import { TransactionHost } from '#platform/persistence/transaction-host';",
      'export interface Options {',
      '  numberAtCommit?: boolean;',
      '}',
      'export async function f(',
      '  tx: TransactionHost,',
      '  ledger: LedgerPostingService,',
      '  batches: PostingBatches,',
      '  r: PostingRequest,',
      ') {',
      '  tx.afterCommit(() => undefined);',
      '  tx.writeLast({ sql: "", params: [] });',
      '  tx.writeWithCommit([]);',
      '  const facts = await ledger.postingFacts([r]);',
      "  await ledger.postingFactsForRoles('2026-11-29', []);",
      '  const prepared = ledger.preparePosting(r, facts);',
      '  await ledger.writePostings([prepared], { withCommit: true });',
      '  const built = await batches.buildPostings([{ request: r }]);',
      '  await batches.writeBuiltPostings(built);',
      '}',
    ].join('\n');
    const message = (what: string) =>
      `architecture/no-sql-outside-infrastructure: No statement ordering or commit timing in application/: put \`${what}\` behind a repository or writer method of the context's infrastructure/.`;
    const found = await violations('libs/contexts/fulfillment/application/fixture.ts', timing);
    expect(found).toEqual([
      message('KeyedBatches'),
      message('numberAtCommit?: ...'),
      message('.afterCommit(...)'),
      message('.writeLast(...)'),
      "architecture/no-sql-outside-infrastructure: No SQL in application/: put `{ sql: ... }` in a repository of the context's infrastructure/.",
      message('.writeWithCommit(...)'),
      message('.postingFacts(...)'),
      message('.postingFactsForRoles(...)'),
      message('.preparePosting(...)'),
      message('.writePostings(...)'),
      message('{ withCommit }'),
      message('.buildPostings(...)'),
      message('.writeBuiltPostings(...)'),
    ]);
    expect(await violations('libs/contexts/fulfillment/infrastructure/fixture.ts', timing)).toEqual([]);
    const implementations = [
      "import { StockMovementBatches } from '../infrastructure/stock-movement-batches';",
      "import { DemandRefreshAfterCommit } from '../infrastructure/demand-refresh-after-commit';",
      "import { JournalPostingBatches } from '../infrastructure/journal-posting-batches';",
      'export const implementations = [StockMovementBatches, DemandRefreshAfterCommit, JournalPostingBatches];',
    ].join('\n');
    expect(await violations('libs/contexts/inventory/application/fixture.ts', implementations)).toEqual(
      [
        'StockMovementBatches',
        'DemandRefreshAfterCommit',
        'JournalPostingBatches',
        'StockMovementBatches',
        'DemandRefreshAfterCommit',
        'JournalPostingBatches',
      ].map(message),
    );
  });

  it('treats worker/ like application code', async () => {
    const sql =
      "import { DataSource } from 'typeorm';\nexport async function f(d: DataSource) {\n  return d.query('DELETE FROM webhook_deliveries');\n}\n";
    expect(await violations('libs/contexts/webhooks/worker/fixture.ts', sql)).toEqual([
      "architecture/no-sql-outside-infrastructure: No `DataSource` in worker/: the context's infrastructure/ repositories own the database.",
      "architecture/no-sql-outside-infrastructure: No SQL in worker/: put `.query(...)` in a repository of the context's infrastructure/.",
    ]);
    expect(await violations('libs/contexts/webhooks/infrastructure/fixture.ts', sql)).toEqual([]);
  });

  it('makes test/, bench/ and scripts/ import a context through its entry file', async () => {
    const deep =
      "import { OrderRepository } from '../../libs/contexts/sales/infrastructure/order.repository';\nexport const x = OrderRepository;\n";
    expect(await violations('test/sales/fixture.e2e-spec.ts', deep)).toEqual([
      "architecture/entry-files-only: Import the 'sales' context through its entry file (#contexts/sales), not libs/contexts/sales/infrastructure/order.repository; test support it offers on purpose is exported there.",
    ]);
    expect(
      await violations(
        'bench/fixture.bench.ts',
        "import { SIGNING_SECRET_PURPOSE } from '../libs/contexts/webhooks/domain/signing-secret';\nexport const x = SIGNING_SECRET_PURPOSE;\n",
      ),
    ).toHaveLength(1);
    expect(
      await violations(
        'scripts/fixture.ts',
        "import { newId } from '../libs/platform/persistence/ids';\nexport const x = newId;\n",
      ),
    ).toEqual([
      'architecture/entry-files-only: Import the platform by its alias (#platform/persistence/ids), not by the relative path ../libs/platform/persistence/ids.',
    ]);
    expect(
      await violations(
        'test/sales/fixture.e2e-spec.ts',
        "import { OrderRepository } from '#contexts/sales';\nimport { newId } from '#platform/persistence/ids';\nimport { verifySignature } from '../../libs/contexts/webhooks/verifier';\nexport const x = [OrderRepository, newId, verifySignature];\n",
      ),
    ).toEqual([]);
  });

  it('lets only the outbox writers and the webhook dispatcher name the outbox table', async () => {
    const message =
      'architecture/outbox-owners: Only the outbox writers and the webhook dispatcher name outbox_events in SQL; publish events through EventPublisher.';
    const insert =
      "export const sql = `INSERT INTO outbox_events (id) VALUES ($1)`;\nexport const read = 'SELECT id FROM outbox_events';\n";
    expect(await violations('libs/contexts/sales/infrastructure/fixture.repository.ts', insert)).toEqual([
      message,
      message,
    ]);
    expect(
      await violations(
        'libs/contexts/catalog/infrastructure/fixture.writer.ts',
        "import { outboxInsertSql } from '#platform/events/outbox-writer';\nexport const sql = outboxInsertSql('r.event', 'r');\n",
      ),
    ).toEqual([message]);
    for (const owner of [
      'libs/platform/events/fixture.ts',
      'libs/contexts/webhooks/infrastructure/fixture.repository.ts',
      'libs/contexts/inventory/infrastructure/stock-movement.writer.ts',
      'libs/contexts/accounting/infrastructure/journal-entry.writer.ts',
    ])
      expect(await violations(owner, insert)).toEqual([]);
  });
});
