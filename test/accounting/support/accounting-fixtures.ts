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

/** Sum of debits minus credits over posted lines of one entity and mode (reversed entries stay posted in the ledger). */
export async function trialBalance(app: TestApp, entityId: string, livemode = true): Promise<string> {
  const { rows } = await app.db.query(
    `SELECT coalesce(sum(l.debit_amount - l.credit_amount), 0)::numeric(19,4)::text AS net
     FROM journal_lines l JOIN journal_entries e ON e.id = l.journal_entry_id
     WHERE e.entity_id = $1 AND e.livemode = $2 AND e.status IN ('posted', 'reversed')`,
    [entityId, livemode],
  );
  return rows[0].net as string;
}
