import { MigrationInterface, QueryRunner } from 'typeorm';

/** Entity freeze state and its audit log, bulk imports (errors, external id map), the activity log. */
export class MigrationContext1764100000000 implements MigrationInterface {
  name = 'MigrationContext1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE entity_freezes (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        frozen boolean NOT NULL DEFAULT false,
        freeze_token uuid,
        frozen_at timestamptz,
        frozen_by_key_id uuid,
        reason text,
        unfrozen_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        UNIQUE (entity_id, livemode)
      )`);
    await q.query(`
      CREATE TABLE entity_freeze_history (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        action text NOT NULL CHECK (action IN ('freeze', 'unfreeze')),
        reason text,
        api_key_id uuid,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE INDEX entity_freeze_history_keyset ON entity_freeze_history (entity_id, livemode, id)`,
    );
    await q.query(`
      CREATE TABLE imports (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        resource text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'completed_with_errors', 'failed')),
        source text NOT NULL,
        source_format text NOT NULL CHECK (source_format IN ('json', 'ndjson')),
        total integer NOT NULL,
        processed integer NOT NULL DEFAULT 0,
        succeeded integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        next_row integer NOT NULL DEFAULT 0,
        api_key_id uuid NOT NULL,
        failure_reason text,
        started_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX imports_keyset ON imports (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX imports_unfinished ON imports (status) WHERE status IN ('queued', 'running')`,
    );
    await q.query(`
      CREATE TABLE import_errors (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        import_id uuid NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        row_number integer NOT NULL,
        external_id text,
        error jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        UNIQUE (import_id, row_number)
      )`);
    await q.query(`CREATE INDEX import_errors_keyset ON import_errors (entity_id, livemode, import_id, id)`);
    await q.query(`
      CREATE TABLE import_external_ids (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        resource text NOT NULL,
        external_id text NOT NULL,
        resource_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        UNIQUE (entity_id, livemode, resource, external_id)
      )`);
    await q.query(`CREATE INDEX import_external_ids_keyset ON import_external_ids (entity_id, livemode, id)`);
    await q.query(`
      CREATE TABLE activity_log (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        api_key_id uuid NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        resource_type text,
        resource_id text,
        status integer NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(`CREATE INDEX activity_log_keyset ON activity_log (entity_id, livemode, id)`);
    await q.query(
      `CREATE INDEX activity_log_resource ON activity_log (entity_id, livemode, resource_type, resource_id, id)`,
    );
    await q.query(`CREATE INDEX activity_log_key ON activity_log (entity_id, livemode, api_key_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'activity_log',
      'import_external_ids',
      'import_errors',
      'imports',
      'entity_freeze_history',
      'entity_freezes',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
