import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT_COLUMNS = `
  id uuid PRIMARY KEY,
  entity_id uuid NOT NULL,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1`;

/** A reference list: tenant columns, a code unique per entity and mode, and its own fields. */
const REFERENCE_LISTS: Record<string, string> = {
  payment_terms: `
    name text NOT NULL,
    code text NOT NULL,
    net_days integer NOT NULL CHECK (net_days >= 0),
    discount_percent numeric(9,4) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
    discount_days integer NOT NULL DEFAULT 0 CHECK (discount_days >= 0 AND discount_days <= net_days)`,
  locations: `
    name text NOT NULL,
    code text NOT NULL,
    type text NOT NULL CHECK (type IN ('warehouse', 'store', 'virtual')),
    address jsonb`,
  units_of_measure: `
    code text NOT NULL,
    name text NOT NULL,
    precision integer NOT NULL DEFAULT 0 CHECK (precision BETWEEN 0 AND 4)`,
  sales_channels: `
    name text NOT NULL,
    code text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('storefront', 'marketplace1', 'marketplace2', 'pos', 'other'))`,
  pricing_levels: `
    name text NOT NULL,
    code text NOT NULL,
    percent_adjustment numeric(9,4) NOT NULL CHECK (percent_adjustment >= -100 AND percent_adjustment <= 1000)`,
};

/** Sales context: reference lists, customer accounts with addresses, contacts and payment methods, pricing policies. */
export class SalesAccountsAndReferenceLists1763850000000 implements MigrationInterface {
  name = 'SalesAccountsAndReferenceLists1763850000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(REFERENCE_LISTS)) {
      await q.query(`CREATE TABLE ${table} (${TENANT_COLUMNS}, ${columns})`);
      await q.query(`CREATE INDEX ${table}_keyset ON ${table} (entity_id, livemode, id)`);
      await q.query(`CREATE UNIQUE INDEX ${table}_code_unique ON ${table} (entity_id, livemode, code)`);
    }
    await q.query(`
      CREATE TABLE accounts (${TENANT_COLUMNS},
        name text NOT NULL,
        email text,
        phone text,
        currency char(3) NOT NULL,
        credit_limit numeric(19,4) CHECK (credit_limit >= 0),
        payment_terms_id uuid REFERENCES payment_terms(id) ON DELETE RESTRICT,
        tax_id text,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted')),
        merged_into_id uuid REFERENCES accounts(id),
        deleted_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE INDEX accounts_keyset ON accounts (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX accounts_active_keyset ON accounts (entity_id, livemode, id) WHERE status = 'active'`,
    );
    await q.query(
      `CREATE INDEX accounts_payment_terms ON accounts (payment_terms_id) WHERE payment_terms_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE account_addresses (${TENANT_COLUMNS},
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('billing', 'shipping')),
        line1 text NOT NULL,
        line2 text,
        city text NOT NULL,
        region text,
        postal_code text,
        country char(2) NOT NULL,
        is_default boolean NOT NULL DEFAULT false
      )`);
    await q.query(
      `CREATE INDEX account_addresses_keyset ON account_addresses (entity_id, livemode, account_id, id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX account_addresses_one_default ON account_addresses (account_id, type) WHERE is_default`,
    );

    await q.query(`
      CREATE TABLE account_contacts (${TENANT_COLUMNS},
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text,
        phone text,
        role text,
        is_primary boolean NOT NULL DEFAULT false
      )`);
    await q.query(
      `CREATE INDEX account_contacts_keyset ON account_contacts (entity_id, livemode, account_id, id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX account_contacts_one_primary ON account_contacts (account_id) WHERE is_primary`,
    );

    await q.query(`
      CREATE TABLE payment_methods (${TENANT_COLUMNS},
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('card', 'bank_account', 'other')),
        card_brand text,
        card_last4 char(4),
        card_exp_month integer CHECK (card_exp_month BETWEEN 1 AND 12),
        card_exp_year integer,
        bank_name text,
        bank_last4 char(4),
        description text,
        billing_name text,
        is_default boolean NOT NULL DEFAULT false,
        metadata jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(
      `CREATE INDEX payment_methods_keyset ON payment_methods (entity_id, livemode, account_id, id)`,
    );
    // Exactly one default per account: at most one by this index, at least one by the service.
    await q.query(
      `CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (account_id) WHERE is_default`,
    );

    await q.query(`
      CREATE TABLE pricing_policies (${TENANT_COLUMNS},
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('percentage_off', 'amount_off', 'fixed_price')),
        value numeric(19,4) NOT NULL CHECK (value >= 0),
        account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
        product_id uuid,
        product_category_id uuid,
        priority integer NOT NULL DEFAULT 0,
        active boolean NOT NULL DEFAULT true,
        starts_at timestamptz,
        ends_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
      )`);
    await q.query(`CREATE INDEX pricing_policies_keyset ON pricing_policies (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX pricing_policies_account ON pricing_policies (entity_id, livemode, account_id, id)`,
    );
    await q.query(
      `CREATE INDEX pricing_policies_product ON pricing_policies (entity_id, livemode, product_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'pricing_policies',
      'payment_methods',
      'account_contacts',
      'account_addresses',
      'accounts',
      ...Object.keys(REFERENCE_LISTS),
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
