import type { Pool, PoolClient } from 'pg';
import { SecretBox } from './secret-box';

/** Columns holding sealed secrets: table, column and the purpose they are sealed for. */
export const SEALED_COLUMNS = [
  { table: 'webhook_endpoints', column: 'secret', purpose: 'webhook_endpoints.secret' },
  { table: 'integrations', column: 'credentials', purpose: 'integrations.credentials' },
  // The secret fields of stored idempotent responses (24 h; see IdempotencyService.complete).
  { table: 'idempotency_keys', column: 'response_secrets', purpose: 'idempotency_keys.response_secrets' },
] as const;

/**
 * Seals every value of the sealed columns with the box's current key: plaintext (rows written
 * before encryption) and values of older keys alike. Batches of 500 rows, each in its own
 * statement; returns how many values changed.
 */
export async function reencryptSecrets(db: Pool | PoolClient, box: SecretBox): Promise<number> {
  let changed = 0;
  for (const { table, column, purpose } of SEALED_COLUMNS) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await db.query<{ id: string; value: string }>(
        `SELECT id, ${column} AS value FROM ${table} WHERE id > $1 AND ${column} IS NOT NULL ORDER BY id LIMIT 500`,
        [after],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const updates = rows
        .map((r) => ({ id: r.id, value: box.reseal(r.value, purpose), old: r.value }))
        .filter((u) => u.value !== u.old);
      if (updates.length > 0) {
        await db.query(
          `UPDATE ${table} t SET ${column} = u.value FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, value, old)
            WHERE t.id = u.id AND t.${column} = u.old`,
          [updates.map((u) => u.id), updates.map((u) => u.value), updates.map((u) => u.old)],
        );
        changed += updates.length;
      }
    }
  }
  return changed;
}
