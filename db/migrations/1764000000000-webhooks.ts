import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints and deliveries; an events index by type; a NOTIFY that wakes the dispatcher. */
export class Webhooks1764000000000 implements MigrationInterface {
  name = 'Webhooks1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        url text NOT NULL,
        description text,
        enabled_events text[] NOT NULL,
        secret text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        disabled_reason text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1
      )`);
    await q.query(
      `CREATE INDEX webhook_endpoints_keyset ON webhook_endpoints (entity_id, livemode, id) WHERE deleted_at IS NULL`,
    );
    // One active endpoint per URL and mode (a second registration is 409 duplicate_url).
    await q.query(
      `CREATE UNIQUE INDEX webhook_endpoints_active_url ON webhook_endpoints (entity_id, livemode, url) WHERE deleted_at IS NULL AND status = 'active'`,
    );
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        entity_id uuid NOT NULL,
        livemode boolean NOT NULL,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        attempt_count integer NOT NULL DEFAULT 0,
        last_attempt integer,
        next_retry_at timestamptz,
        claimed_until timestamptz,
        delivered_at timestamptz,
        failed_at timestamptz,
        response_status integer,
        response_body text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        UNIQUE (endpoint_id, event_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_keyset ON webhook_deliveries (entity_id, livemode, endpoint_id, id)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_retry_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id, failed_at) WHERE status = 'failed'`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at)`);
    await q.query(`CREATE INDEX outbox_events_type_keyset ON outbox_events (entity_id, livemode, type, id)`);
    await q.query(`CREATE INDEX outbox_events_created ON outbox_events (created_at)`);
    // Wakes the dispatchers at commit time; they also poll, so a missed notification only adds latency.
    await q.query(`
      CREATE FUNCTION notify_outbox_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('outbox_events', '');
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_events()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS outbox_events_notify ON outbox_events`);
    await q.query(`DROP FUNCTION IF EXISTS notify_outbox_events()`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_created`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_type_keyset`);
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
  }
}
