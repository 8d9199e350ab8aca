import { MigrationInterface, QueryRunner } from 'typeorm';
import { loadConfig } from '#platform/config/app-config';
import { SEALED_COLUMNS } from '#platform/crypto/reencrypt';
import { SecretBox } from '#platform/crypto/secret-box';

/**
 * Webhook signing secrets are stored encrypted with SECRETS_KEY (AES-256-GCM): every existing
 * plaintext secret is sealed with the current key. Run with the SECRETS_KEY the apps use.
 */
/** The columns this migration seals: those that existed when it was written (later ones are sealed from the start). */
const WEBHOOK_COLUMNS = SEALED_COLUMNS.filter((c) => c.table === 'webhook_endpoints');

export class EncryptWebhookSecrets1765310000000 implements MigrationInterface {
  name = 'EncryptWebhookSecrets1765310000000';

  async up(q: QueryRunner): Promise<void> {
    const box = new SecretBox(loadConfig().secretsKey);
    for (const { table, column, purpose } of WEBHOOK_COLUMNS) {
      const rows: { id: string; value: string }[] = await q.query(
        `SELECT id, ${column} AS value FROM ${table} WHERE ${column} NOT LIKE 'enc:%'`,
      );
      for (const row of rows) {
        await q.query(`UPDATE ${table} SET ${column} = $2 WHERE id = $1`, [
          row.id,
          box.seal(row.value, purpose),
        ]);
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const box = new SecretBox(loadConfig().secretsKey);
    for (const { table, column, purpose } of WEBHOOK_COLUMNS) {
      const rows: { id: string; value: string }[] = await q.query(
        `SELECT id, ${column} AS value FROM ${table} WHERE ${column} LIKE 'enc:%'`,
      );
      for (const row of rows) {
        await q.query(`UPDATE ${table} SET ${column} = $2 WHERE id = $1`, [
          row.id,
          box.open(row.value, purpose),
        ]);
      }
    }
  }
}
