import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';

/** A ledger account as an entry's lines are checked against it. */
export interface AccountFacts {
  id: string;
  code: string;
  name: string;
  postable: boolean;
  active: boolean;
}

/** The period covering an entry's date. */
export interface PeriodFacts {
  id: string;
  name: string;
  status: string;
}

/** What a new journal entry is checked against. */
export interface EntryFacts {
  accounts: Map<string, AccountFacts>;
  /** Account ids by control role (of the roles asked for, those some account holds). */
  byRole: Map<string, string>;
  period: PeriodFacts | undefined;
  /** Whether the entity's settings row (which holds the entry counter) exists yet. */
  settingsExist: boolean;
  /** The approval threshold as stored (numeric text), null when none is set. */
  approvalThreshold: string | null;
}

/** EntryFacts of entries of several dates: the period covering each date (absent: none covers it). */
export interface DatedEntryFacts extends Omit<EntryFacts, 'period' | 'byRole'> {
  periods: Map<string, PeriodFacts>;
}

/** Answers, in one round trip, everything a new journal entry is checked against. */
@Injectable()
export class EntryFactsRepository {
  constructor(private readonly tx: TransactionHost) {}

  /**
   * The accounts among `accountIds`, the period covering `date` (share-locked when `lockPeriod`,
   * so it cannot close under the caller's transaction), the entity's approval threshold, and the
   * accounts holding the control `roles` asked for.
   */
  async forEntry(
    accountIds: readonly string[],
    date: string,
    lockPeriod: boolean,
    roles: readonly string[] = [],
  ): Promise<EntryFacts> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: {
      accounts: (AccountFacts & { control_role: string | null })[] | null;
      period: PeriodFacts | null;
      settings: { approval_threshold: string | null } | null;
    }[] = await this.tx.manager.query(
      `WITH p AS (
           SELECT id, name, status FROM accounting_periods
           WHERE entity_id = $1 AND livemode = $2 AND start_date <= $3 AND end_date >= $3 LIMIT 1 ${lockPeriod ? 'FOR SHARE' : ''})
         SELECT
           (SELECT json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name, 'postable', a.postable, 'active', a.active, 'control_role', a.control_role))
              FROM ledger_accounts a WHERE a.entity_id = $1 AND a.livemode = $2
                AND (a.id = ANY($4::uuid[]) OR a.control_role = ANY($5::text[]))) AS accounts,
           (SELECT row_to_json(p) FROM p) AS period,
           (SELECT json_build_object('approval_threshold', s.approval_threshold::text)
              FROM accounting_settings s WHERE s.entity_id = $1 AND s.livemode = $2) AS settings`,
      [entityId, livemode, date, accountIds, roles],
    );
    const row = rows[0];
    return {
      accounts: new Map((row.accounts ?? []).map((a) => [a.id, a])),
      byRole: new Map(
        (row.accounts ?? []).flatMap((a) =>
          a.control_role !== null && roles.includes(a.control_role) ? [[a.control_role, a.id] as const] : [],
        ),
      ),
      period: row.period ?? undefined,
      settingsExist: row.settings !== null,
      approvalThreshold: row.settings?.approval_threshold ?? null,
    };
  }

  /**
   * forEntry() for entries of many dates (lines naming accounts by id), in the caller's
   * transaction: the accounts among `accountIds`, the approval threshold, and per date the period
   * covering it, share-locked until that transaction ends so none of them can close under it.
   */
  async forDatedEntries(accountIds: readonly string[], dates: readonly string[]): Promise<DatedEntryFacts> {
    const { entityId, livemode } = RequestContext.caller();
    const rows: {
      accounts: AccountFacts[] | null;
      periods: { date: string; id: string; name: string; status: string }[] | null;
      settings: { approval_threshold: string | null } | null;
    }[] = await this.tx.transactional.query(
      `WITH d AS (SELECT DISTINCT unnest($3::date[]) AS date),
         p AS (
           SELECT ap.id, ap.name, ap.status, ap.start_date, ap.end_date FROM accounting_periods ap
           WHERE ap.entity_id = $1 AND ap.livemode = $2
             AND EXISTS (SELECT 1 FROM d WHERE ap.start_date <= d.date AND ap.end_date >= d.date)
           FOR SHARE)
         SELECT
           (SELECT json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name, 'postable', a.postable, 'active', a.active))
              FROM ledger_accounts a WHERE a.entity_id = $1 AND a.livemode = $2 AND a.id = ANY($4::uuid[])) AS accounts,
           (SELECT json_agg(json_build_object('date', to_char(d.date, 'YYYY-MM-DD'), 'id', p.id, 'name', p.name, 'status', p.status))
              FROM d JOIN p ON p.start_date <= d.date AND p.end_date >= d.date) AS periods,
           (SELECT json_build_object('approval_threshold', s.approval_threshold::text)
              FROM accounting_settings s WHERE s.entity_id = $1 AND s.livemode = $2) AS settings`,
      [entityId, livemode, dates, accountIds],
    );
    const row = rows[0];
    return {
      accounts: new Map((row.accounts ?? []).map((a) => [a.id, a])),
      periods: new Map((row.periods ?? []).map(({ date, ...period }) => [date, period])),
      settingsExist: row.settings !== null,
      approvalThreshold: row.settings?.approval_threshold ?? null,
    };
  }
}
