import { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '#platform/config/app-config';
import { SecretBox } from '#platform/crypto/secret-box';
import { openResponse, sealResponse } from '#platform/http/idempotency/sealed-response';

/** The secret fields of the responses stored before this migration (API keys, webhook secrets). */
const SECRET_FIELDS = ['secret', 'signing_secret'];

/**
 * `idempotency_keys.response_secrets`: a stored idempotent response keeps its secret fields (a
 * plaintext API key, a webhook signing secret) only sealed with SECRETS_KEY, out of
 * `response_body`. Records already stored with a plaintext secret are split the same way. Run
 * with the SECRETS_KEY the apps use.
 */
export class IdempotentResponseSecrets1765651000000 implements MigrationInterface {
  name = 'IdempotentResponseSecrets1765651000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS response_secrets text`);
    const box = new SecretBox(loadConfig().secretsKey);
    const rows: { id: string; body: unknown }[] = await q.query(
      `SELECT id, response_body AS body FROM idempotency_keys
        WHERE json_typeof(response_body) = 'object'
          AND (json_typeof(response_body -> 'secret') = 'string' OR json_typeof(response_body -> 'signing_secret') = 'string')`,
    );
    for (const row of rows) {
      const stored = sealResponse(row.body, SECRET_FIELDS, box);
      await q.query(
        `UPDATE idempotency_keys SET response_body = $2::json, response_secrets = $3 WHERE id = $1`,
        [row.id, JSON.stringify(stored.body), stored.sealed],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const box = new SecretBox(loadConfig().secretsKey);
    const rows: { id: string; body: unknown; sealed: string }[] = await q.query(
      `SELECT id, response_body AS body, response_secrets AS sealed FROM idempotency_keys WHERE response_secrets IS NOT NULL`,
    );
    for (const row of rows) {
      await q.query(`UPDATE idempotency_keys SET response_body = $2::json WHERE id = $1`, [
        row.id,
        JSON.stringify(openResponse(row.body, row.sealed, box)),
      ]);
    }
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN response_secrets`);
  }
}
