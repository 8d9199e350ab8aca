import { api } from './http';
import { listAll } from './list-all';
import type { TestApp } from './test-app';

/** A journal entry as `GET /v1/journal-entries/{id}` shows it (the list leaves out `lines`). */
export interface JournalEntry {
  id: string;
  entry_number: string;
  description: string | null;
  source_type: string;
  source_id: string | null;
  total_debit: number;
  total_credit: number;
  lines: { account_id: string; debit_amount: number; credit_amount: number }[];
}

/** A journal line with the control role of its ledger account. */
export interface RoleLine {
  role: string | null;
  debit: number;
  credit: number;
}

/**
 * The journal entries of some sources with their lines, read through the journal-entries API
 * (every page of each source type, then each entry found; as the primary entity's live key
 * unless told).
 */
export async function journalEntriesOf(
  app: TestApp,
  sourceTypes: readonly string[],
  sourceIds: readonly string[],
  key = app.seed.entities.primary.keys.live,
): Promise<JournalEntry[]> {
  const client = api(app, key);
  const wanted = new Set(sourceIds);
  const found: JournalEntry[] = [];
  for (const type of sourceTypes) {
    const page = await listAll<JournalEntry>(client, `/v1/journal-entries?source_type=${type}`);
    found.push(...page.filter((e) => e.source_id !== null && wanted.has(e.source_id)));
  }
  const entries: JournalEntry[] = [];
  for (const e of found) {
    entries.push((await client.get(`/v1/journal-entries/${e.id}`).expect(200)).body as JournalEntry);
  }
  return entries;
}

/** A journal entry as the list shows it (no `lines`). */
export type ListedJournalEntry = Omit<JournalEntry, 'lines'> & Record<string, unknown>;

/**
 * Every journal entry the client's key sees (its entity and mode), through the list route;
 * `filters` is the query string (`?status=posted`).
 */
export function allJournalEntries(client: ReturnType<typeof api>, filters = '') {
  return listAll<ListedJournalEntry>(client, `/v1/journal-entries${filters}`);
}

/** The control role of each ledger account of the key's entity and mode, through the API. */
export async function controlRoles(
  app: TestApp,
  key = app.seed.entities.primary.keys.live,
): Promise<Map<string, string | null>> {
  const accounts = await listAll<{ id: string; control_role: string | null }>(
    api(app, key),
    '/v1/accounting/ledger-accounts',
  );
  return new Map(accounts.map((a) => [a.id, a.control_role]));
}

/** An entry's lines, each with its account's control role. */
export function linesByRole(entry: JournalEntry, roles: Map<string, string | null>): RoleLine[] {
  return entry.lines.map((l) => ({
    role: roles.get(l.account_id) ?? null,
    debit: l.debit_amount,
    credit: l.credit_amount,
  }));
}
