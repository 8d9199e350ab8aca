import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants, API keys, idempotency records, rate-limit windows, the outbox, tags. */
export class PlatformFoundation1763700000000 implements MigrationInterface {
  name = 'PlatformFoundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE entities (
        id uuid PRIMARY KEY,
        code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9]{1,32}$'),
        name text NOT NULL,
        timezone text NOT NULL DEFAULT 'UTC',
        base_currency text NOT NULL DEFAULT 'USD',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        livemode boolean NOT NULL,
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        redacted text NOT NULL,
        scopes text[] NOT NULL,
        ip_allowlist text[] NOT NULL DEFAULT '{}',
        rate_limit_per_minute integer,
        expires_at timestamptz,
        revoked_at timestamptz,
        rotated_from_id uuid,
        replaced_by_id uuid,
        created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX api_keys_keyset ON api_keys (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        key text NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        body_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
        response_status integer,
        response_headers jsonb,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        UNIQUE (entity_id, livemode, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`);
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_windows (
        api_key_id uuid NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (api_key_id, window_start)
      )`);
    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        type text NOT NULL,
        api_version text NOT NULL,
        data jsonb NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX outbox_events_undispatched ON outbox_events (id) WHERE dispatched_at IS NULL`,
    );
    await q.query(`CREATE INDEX outbox_events_keyset ON outbox_events (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE tags (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        name text NOT NULL,
        color text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX tags_keyset ON tags (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE tag_assignments (
        tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        resource_type text NOT NULL,
        resource_id uuid NOT NULL,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tag_id, resource_type, resource_id)
      )`);
    await q.query(
      `CREATE INDEX tag_assignments_resource ON tag_assignments (entity_id, livemode, resource_type, resource_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'tag_assignments',
      'tags',
      'outbox_events',
      'rate_limit_windows',
      'idempotency_keys',
      'api_keys',
      'entities',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
