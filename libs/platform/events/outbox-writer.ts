import { newId } from '../persistence/ids';
import type { ConnectionQuery, WriteStatement } from '../persistence/transaction-host';
import { RequestContext } from '../tenancy/request-context';
import { isKnownEventType } from './event-catalog';

/**
 * The API version, the one source of every place that states it: events' `api_version` and the
 * `Service-API-Version` header of their deliveries, the OpenAPI description's `info.version`,
 * and the typed client (`API_VERSION`, its package version `2026.9.22`). Also the version used
 * to serialize `data.object`.
 */
export const API_VERSION = '2026-09-22';

/** One outbox_events row. */
export interface OutboxRow {
  id: string;
  entityId: string;
  livemode: boolean;
  type: string;
  apiVersion: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  requestId: string | null;
  createdAt: Date;
  /** Null (the default) until the fan-out has made the event's deliveries. */
  dispatchedAt?: Date | null;
}

/** An outbox row as JSON, the form every insert of outbox rows reads (see outboxInsertSql). */
export interface OutboxRowJson {
  id: string;
  entity_id: string;
  livemode: boolean;
  type: string;
  api_version: string;
  data: OutboxRow['data'];
  request_id: string | null;
  created_at: string;
  dispatched_at: string | null;
}

/**
 * The outbox row of an event `type` about `object` (the full resource as it is now), for the
 * current caller and request. The type must be in the event catalog.
 */
export function outboxRow(
  type: string,
  object: unknown,
  previousAttributes?: Record<string, unknown>,
): OutboxRow {
  if (!isKnownEventType(type)) throw new Error(`Event type '${type}' is not in the event catalog`);
  const { entityId, livemode } = RequestContext.caller();
  return {
    id: newId(),
    entityId,
    livemode,
    type,
    apiVersion: API_VERSION,
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    requestId: RequestContext.requestId() ?? null,
    createdAt: new Date(),
  };
}

/** `row` serialised for outboxInsertSql. */
export function outboxRowJson(row: OutboxRow): OutboxRowJson {
  return {
    id: row.id,
    entity_id: row.entityId,
    livemode: row.livemode,
    type: row.type,
    api_version: row.apiVersion,
    data: row.data,
    request_id: row.requestId,
    created_at: row.createdAt.toISOString(),
    dispatched_at: row.dispatchedAt?.toISOString() ?? null,
  };
}

/**
 * The INSERT of outbox rows: one row for each row of `from`, whose jsonb expression `event`
 * holds an outboxRowJson. `data` may replace the data column's expression (a writer that puts a
 * value known only inside its statement into the event). A writer that inserts its events in its
 * own statement (in a CTE beside the resource's rows) embeds this SQL.
 */
export function outboxInsertSql(event: string, from: string, data = `${event}->'data'`): string {
  return `INSERT INTO outbox_events (id, entity_id, livemode, type, api_version, data, request_id, created_at, dispatched_at)
         SELECT (${event}->>'id')::uuid, (${event}->>'entity_id')::uuid, (${event}->>'livemode')::boolean,
           ${event}->>'type', ${event}->>'api_version', ${data}, ${event}->>'request_id',
           (${event}->>'created_at')::timestamptz, (${event}->>'dispatched_at')::timestamptz
         FROM ${from}`;
}

/**
 * The INSERT of `rows`, not sent: for a writer that sends it with the resource's rows in one
 * statement (combinedWrite). Null when there is nothing to insert.
 */
export function outboxInsertStatement(rows: readonly OutboxRow[]): WriteStatement | null {
  if (rows.length === 0) return null;
  return {
    sql: outboxInsertSql('r.event', `jsonb_array_elements($1::jsonb) AS r(event)`),
    params: [JSON.stringify(rows.map(outboxRowJson))],
  };
}

/**
 * Inserts `rows` with one statement, sent through `query` (on the writing transaction's
 * connection).
 */
export async function insertOutboxRows(query: ConnectionQuery, rows: readonly OutboxRow[]): Promise<void> {
  const statement = outboxInsertStatement(rows);
  if (statement) await query(statement.sql, statement.params);
}
