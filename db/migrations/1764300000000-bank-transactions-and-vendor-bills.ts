import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/** Accounting: bank flag on ledger accounts, bank transactions (deposits matched to invoices), vendor bills and bill payments. */
export class BankTransactionsAndVendorBills1764300000000 implements MigrationInterface {
  name = 'BankTransactionsAndVendorBills1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_accounts ADD COLUMN is_bank boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE bank_transactions (${TENANT},
        bank_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        type text NOT NULL CHECK (type IN ('deposit', 'withdrawal')),
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        transaction_date date NOT NULL,
        description text,
        reference text,
        status text NOT NULL CHECK (status IN ('unmatched', 'matched')),
        matched_at timestamptz,
        customer_account_id uuid,
        payment_id text,
        journal_entry_id uuid REFERENCES journal_entries(id),
        applied_amount numeric(19,4),
        unapplied_amount numeric(19,4),
        route_unapplied text CHECK (route_unapplied IN ('customer_credit', 'suspense')),
        reconciliation_id uuid,
        payment_method text,
        applications jsonb
      )`);
    await q.query(`CREATE INDEX bank_transactions_keyset ON bank_transactions (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX bank_transactions_account ON bank_transactions (entity_id, livemode, bank_account_id, id)`,
    );
    await q.query(
      `CREATE INDEX bank_transactions_status ON bank_transactions (entity_id, livemode, status, id)`,
    );
    await q.query(
      `CREATE INDEX bank_transactions_date ON bank_transactions (entity_id, livemode, transaction_date)`,
    );
    await q.query(`
      CREATE TABLE vendor_bills (${TENANT},
        vendor_name text NOT NULL,
        bill_number text,
        bill_date date NOT NULL,
        due_date date,
        currency text NOT NULL,
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        amount_paid numeric(19,4) NOT NULL DEFAULT 0 CHECK (amount_paid >= 0 AND amount_paid <= amount),
        status text NOT NULL CHECK (status IN ('open', 'partially_paid', 'paid', 'voided')),
        debit_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        description text,
        journal_entry_id uuid NOT NULL REFERENCES journal_entries(id),
        voided_on date,
        void_journal_entry_id uuid REFERENCES journal_entries(id)
      )`);
    await q.query(`CREATE INDEX vendor_bills_keyset ON vendor_bills (entity_id, livemode, id)`);
    await q.query(`CREATE INDEX vendor_bills_status ON vendor_bills (entity_id, livemode, status, id)`);
    await q.query(`CREATE INDEX vendor_bills_date ON vendor_bills (entity_id, livemode, bill_date)`);
    await q.query(`
      CREATE TABLE vendor_bill_payments (${TENANT},
        vendor_bill_id uuid NOT NULL REFERENCES vendor_bills(id),
        amount numeric(19,4) NOT NULL CHECK (amount > 0),
        payment_date date NOT NULL,
        bank_account_id uuid NOT NULL REFERENCES ledger_accounts(id),
        reference text,
        journal_entry_id uuid NOT NULL REFERENCES journal_entries(id)
      )`);
    await q.query(
      `CREATE INDEX vendor_bill_payments_keyset ON vendor_bill_payments (entity_id, livemode, id)`,
    );
    await q.query(
      `CREATE INDEX vendor_bill_payments_bill ON vendor_bill_payments (entity_id, livemode, vendor_bill_id)`,
    );
    await q.query(
      `CREATE INDEX vendor_bill_payments_date ON vendor_bill_payments (entity_id, livemode, payment_date)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE vendor_bill_payments`);
    await q.query(`DROP TABLE vendor_bills`);
    await q.query(`DROP TABLE bank_transactions`);
    await q.query(`ALTER TABLE ledger_accounts DROP COLUMN is_bank`);
  }
}
