import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The integrations context: `integrations` (a connector's configuration; credentials sealed with
 * SECRETS_KEY, NULL once disconnected), `integration_runs` (each sync or import run with its counts
 * and errors) and `integration_imports` (one row per external order or payout imported, unique per
 * integration, so importing it again changes nothing). Channel listings name their integration and
 * record the last push failure; `sync_status` gains `failed`.
 */
export class Integrations1765600000000 implements MigrationInterface {
  name = 'Integrations1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integrations (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        type text NOT NULL CHECK (type IN ('storefront', 'marketplace1', 'marketplace2')),
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('connected', 'disconnected')),
        credentials text,
        credentials_hint text,
        settings jsonb NOT NULL DEFAULT '{}',
        last_import_at timestamptz,
        disconnected_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX integrations_keyset ON integrations (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX integrations_connected ON integrations (status, id) WHERE status = 'connected'`,
    );
    await q.query(`
      CREATE TABLE integration_runs (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        integration_id uuid NOT NULL REFERENCES integrations(id),
        kind text NOT NULL CHECK (kind IN ('listing_sync', 'order_import')),
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule', 'listing')),
        status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
        orders_imported integer NOT NULL DEFAULT 0,
        orders_skipped integer NOT NULL DEFAULT 0,
        payouts_imported integer NOT NULL DEFAULT 0,
        payouts_skipped integer NOT NULL DEFAULT 0,
        listings_synced integer NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE INDEX integration_runs_keyset ON integration_runs (entity_id, livemode, integration_id, id)`,
    );
    await q.query(`
      CREATE TABLE integration_imports (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        integration_id uuid NOT NULL REFERENCES integrations(id),
        kind text NOT NULL CHECK (kind IN ('order', 'payout')),
        external_id text NOT NULL,
        resource_id uuid,
        journal_entry_id uuid,
        run_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE UNIQUE INDEX integration_imports_external ON integration_imports (integration_id, kind, external_id)`,
    );
    await q.query(`ALTER TABLE channel_listings ADD COLUMN integration_id uuid REFERENCES integrations(id)`);
    await q.query(`ALTER TABLE channel_listings ADD COLUMN last_sync_error text`);
    await q.query(
      `CREATE INDEX channel_listings_integration ON channel_listings (integration_id) WHERE integration_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS channel_listings_integration`);
    await q.query(`ALTER TABLE channel_listings DROP COLUMN IF EXISTS last_sync_error`);
    await q.query(`ALTER TABLE channel_listings DROP COLUMN IF EXISTS integration_id`);
    for (const table of ['integration_imports', 'integration_runs', 'integrations'])
      await q.query(`DROP TABLE IF EXISTS ${table}`);
  }
}
