import { JournalEntryRecord, JournalEntryRepository, JournalLineRepository } from '#contexts/accounting';
import { asEntity } from '../../support/as-entity';
import type { api } from '../../support/http';
import { TestApp } from '../../support/test-app';

export interface LedgerFixtures {
  accounts: Record<
    'cash' | 'receivables' | 'revenue' | 'inventory' | 'cogs' | 'expense' | 'payables',
    string
  >;
  openPeriod: { id: string; start_date: string; end_date: string };
  closedPeriod: { id: string; start_date: string; end_date: string };
}

export const ledgerFixtures = (app: TestApp): LedgerFixtures => ({
  accounts: app.seed.fixtures.ledger_accounts as LedgerFixtures['accounts'],
  openPeriod: app.seed.fixtures.open_period as LedgerFixtures['openPeriod'],
  closedPeriod: app.seed.fixtures.closed_period as LedgerFixtures['closedPeriod'],
});

/** A balanced two-line entry body. */
export const twoLines = (debitAccount: string, creditAccount: string, amount: number) => [
  { account_id: debitAccount, debit_amount: amount },
  { account_id: creditAccount, credit_amount: amount },
];

/** Which seeded entity has this id (the entity the accounting reads act for). */
function seededEntity(app: TestApp, entityId: string): 'primary' | 'secondary' {
  if (entityId === app.seed.entities.primary.id) return 'primary';
  if (entityId === app.seed.entities.secondary.id) return 'secondary';
  throw new Error(`${entityId} is not a seeded entity`);
}

/** Posted and reversed entries (reversed entries stay posted in the ledger). */
const IN_LEDGER = { statuses: ['posted', 'reversed'] };

/**
 * Sum of debits minus credits over posted lines of one entity and mode, read through the journal
 * line repository as that entity (no route answers a trial balance).
 */
export async function trialBalance(app: TestApp, entityId: string, livemode = true): Promise<string> {
  const row = await asEntity(
    app,
    () =>
      app
        .get(JournalLineRepository)
        .scopedQuery('l')
        .innerJoin(JournalEntryRecord, 'e', 'e.id = l.journal_entry_id')
        .andWhere('e.status IN (:...statuses)', IN_LEDGER)
        .select('coalesce(sum(l.debit_amount - l.credit_amount), 0)::numeric(19,4)::text', 'net')
        .getRawOne<{ net: string }>(),
    { entity: seededEntity(app, entityId), livemode },
  );
  return row!.net;
}

/**
 * How many entries of one entity and mode are out of balance or disagree with their own lines
 * (totals against line sums), read through the journal entry repository as that entity.
 */
export function entriesDisagreeingWithLines(
  app: TestApp,
  entityId: string,
  livemode = true,
): Promise<number> {
  const lineSum = (column: string) =>
    `(SELECT coalesce(sum(l.${column}), 0) FROM journal_lines l WHERE l.journal_entry_id = e.id)`;
  return asEntity(
    app,
    () =>
      app
        .get(JournalEntryRepository)
        .scopedQuery('e')
        .andWhere(
          `(e.total_debit <> e.total_credit OR e.total_debit <> ${lineSum('debit_amount')} OR e.total_credit <> ${lineSum('credit_amount')})`,
        )
        .getCount(),
    { entity: seededEntity(app, entityId), livemode },
  );
}

/** Switches the control role or postability of a ledger account through its route. */
export async function updateLedgerAccount(
  client: ReturnType<typeof api>,
  id: string,
  changes: { control_role?: string | null; postable?: boolean },
): Promise<void> {
  const updated = (await client.patch(`/v1/accounting/ledger-accounts/${id}`).send(changes).expect(200)).body;
  expect(updated).toMatchObject(changes);
}
