import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/** Accounting: settings and entry counter, chart of accounts, periods, journal entries, recurring templates, fixed assets. */
export class Accounting1763900000000 implements MigrationInterface {
  name = 'Accounting1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounting_settings (${TENANT},
        approval_threshold numeric(19,4),
        entry_number_prefix text NOT NULL,
        last_entry_number bigint NOT NULL DEFAULT 0,
        UNIQUE (entity_id, livemode)
      )`);
    await q.query(`
      CREATE TABLE ledger_accounts (${TENANT},
        code text NOT NULL,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
        normal_balance text NOT NULL CHECK (normal_balance IN ('debit', 'credit')),
        postable boolean NOT NULL DEFAULT true,
        parent_id uuid REFERENCES ledger_accounts(id),
        control_role text,
        description text,
        active boolean NOT NULL DEFAULT true
      )`);
    await q.query(`CREATE UNIQUE INDEX ledger_accounts_code ON ledger_accounts (entity_id, livemode, code)`);
    await q.query(
      `CREATE UNIQUE INDEX ledger_accounts_role ON ledger_accounts (entity_id, livemode, control_role) WHERE control_role IS NOT NULL`,
    );
    await q.query(`CREATE INDEX ledger_accounts_keyset ON ledger_accounts (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE fiscal_years (${TENANT},
        name text NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL CHECK (end_date >= start_date),
        status text NOT NULL CHECK (status IN ('open', 'closed')),
        closed_at timestamptz
      )`);
    await q.query(`CREATE INDEX fiscal_years_keyset ON fiscal_years (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE accounting_periods (${TENANT},
        name text NOT NULL,
        fiscal_year_id uuid REFERENCES fiscal_years(id),
        start_date date NOT NULL,
        end_date date NOT NULL CHECK (end_date >= start_date),
        status text NOT NULL CHECK (status IN ('open', 'closed')),
        closed_at timestamptz
      )`);
    await q.query(`CREATE INDEX accounting_periods_keyset ON accounting_periods (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX accounting_periods_dates ON accounting_periods (entity_id, livemode, start_date, end_date)`,
    );
    await q.query(`
      CREATE TABLE journal_entries (${TENANT},
        period_id uuid NOT NULL REFERENCES accounting_periods(id),
        entry_number text NOT NULL,
        entry_date date NOT NULL,
        entry_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'pending_approval', 'posted', 'reversed', 'voided', 'rejected')),
        approval_status text CHECK (approval_status IN ('auto_approved', 'pending_approval', 'approved', 'rejected')),
        description text,
        source_type text NOT NULL,
        source_id text,
        source_module text,
        is_reversing boolean NOT NULL DEFAULT false,
        reversed_by_id uuid REFERENCES journal_entries(id),
        reversal_of_id uuid REFERENCES journal_entries(id),
        reverse_in_period_id uuid REFERENCES accounting_periods(id),
        batch_id uuid,
        total_debit numeric(19,4) NOT NULL,
        total_credit numeric(19,4) NOT NULL,
        posted_at timestamptz,
        approved_at timestamptz,
        rejected_at timestamptz,
        approved_by uuid,
        rejected_by uuid,
        rejection_reason text,
        idempotency_key text,
        created_by uuid,
        created_by_name text,
        CHECK (total_debit = total_credit)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX journal_entries_number ON journal_entries (entity_id, livemode, entry_number)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX journal_entries_source ON journal_entries (entity_id, livemode, source_type, source_id) WHERE source_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX journal_entries_keyset ON journal_entries (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX journal_entries_batch ON journal_entries (entity_id, livemode, batch_id, id) WHERE batch_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX journal_entries_period_status ON journal_entries (entity_id, livemode, period_id, status)`,
    );
    await q.query(`
      CREATE TABLE journal_lines (${TENANT},
        journal_entry_id uuid NOT NULL REFERENCES journal_entries(id) ON DELETE CASCADE,
        line_number integer NOT NULL,
        account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        debit_amount numeric(19,4) NOT NULL DEFAULT 0 CHECK (debit_amount >= 0),
        credit_amount numeric(19,4) NOT NULL DEFAULT 0 CHECK (credit_amount >= 0),
        description text,
        location_id uuid,
        department_id uuid,
        class_id uuid,
        project_id uuid,
        reconciled boolean NOT NULL DEFAULT false,
        reconciled_at timestamptz,
        UNIQUE (journal_entry_id, line_number)
      )`);
    await q.query(`CREATE INDEX journal_lines_keyset ON journal_lines (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX journal_lines_account ON journal_lines (entity_id, livemode, account_id)`);
    await q.query(`
      CREATE TABLE recurring_journal_entries (${TENANT},
        name text NOT NULL,
        description text,
        entry_type text NOT NULL DEFAULT 'recurring',
        frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly', 'quarterly', 'yearly')),
        next_run_date date NOT NULL,
        end_date date,
        active boolean NOT NULL DEFAULT true,
        lines jsonb NOT NULL,
        last_run_date date,
        last_journal_entry_id uuid
      )`);
    await q.query(
      `CREATE INDEX recurring_journal_entries_keyset ON recurring_journal_entries (entity_id, livemode, id)`,
    );
    await q.query(
      `CREATE INDEX recurring_journal_entries_due ON recurring_journal_entries (next_run_date) WHERE active`,
    );
    await q.query(`
      CREATE TABLE recurring_journal_entry_runs (${TENANT},
        template_id uuid NOT NULL REFERENCES recurring_journal_entries(id) ON DELETE CASCADE,
        run_date date NOT NULL,
        journal_entry_id uuid NOT NULL REFERENCES journal_entries(id),
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
        UNIQUE (template_id, run_date)
      )`);
    await q.query(
      `CREATE INDEX recurring_journal_entry_runs_keyset ON recurring_journal_entry_runs (entity_id, livemode, id)`,
    );
    await q.query(`
      CREATE TABLE fixed_assets (${TENANT},
        name text NOT NULL,
        cost numeric(19,4) NOT NULL CHECK (cost > 0),
        acquisition_date date NOT NULL,
        useful_life_months integer NOT NULL CHECK (useful_life_months > 0),
        salvage_value numeric(19,4) NOT NULL DEFAULT 0 CHECK (salvage_value >= 0),
        depreciation_method text NOT NULL DEFAULT 'straight_line',
        asset_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        depreciation_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        expense_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        accumulated_depreciation numeric(19,4) NOT NULL DEFAULT 0,
        months_depreciated integer NOT NULL DEFAULT 0,
        depreciated_through date,
        total_impaired numeric(19,4) NOT NULL DEFAULT 0,
        total_recovered numeric(19,4) NOT NULL DEFAULT 0,
        revaluation_total numeric(19,4) NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX fixed_assets_keyset ON fixed_assets (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE fixed_asset_depreciations (${TENANT},
        fixed_asset_id uuid NOT NULL REFERENCES fixed_assets(id) ON DELETE CASCADE,
        through_date date NOT NULL,
        months integer NOT NULL,
        amount numeric(19,4) NOT NULL,
        journal_entry_id uuid NOT NULL REFERENCES journal_entries(id)
      )`);
    await q.query(
      `CREATE INDEX fixed_asset_depreciations_keyset ON fixed_asset_depreciations (entity_id, livemode, fixed_asset_id, id)`,
    );
    await q.query(`
      CREATE TABLE fixed_asset_events (${TENANT},
        fixed_asset_id uuid NOT NULL REFERENCES fixed_assets(id) ON DELETE CASCADE,
        event_type text NOT NULL CHECK (event_type IN ('impairment', 'recovery', 'revaluation')),
        event_date date NOT NULL,
        amount numeric(19,4) NOT NULL,
        previous_net_book_value numeric(19,4) NOT NULL,
        new_net_book_value numeric(19,4) NOT NULL,
        fair_value_at_event numeric(19,4),
        reason text,
        journal_entry_id uuid REFERENCES journal_entries(id),
        created_by_name text
      )`);
    await q.query(
      `CREATE INDEX fixed_asset_events_history ON fixed_asset_events (entity_id, livemode, fixed_asset_id, event_date DESC, created_at DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'fixed_asset_events',
      'fixed_asset_depreciations',
      'fixed_assets',
      'recurring_journal_entry_runs',
      'recurring_journal_entries',
      'journal_lines',
      'journal_entries',
      'accounting_periods',
      'fiscal_years',
      'ledger_accounts',
      'accounting_settings',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
