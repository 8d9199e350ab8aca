import { failureText } from '#platform/observability/failure-text';
import { Pool } from 'pg';
import { loadConfig } from '#platform/config/app-config';
import { reencryptSecrets } from '#platform/crypto/reencrypt';
import { SecretBox } from '#platform/crypto/secret-box';
import { resolveDatabaseUrl } from '#platform/persistence/database';

/**
 * `npm run secrets:reencrypt`: seals every stored secret with the first key of SECRETS_KEY
 * (the rotation step between adding a new key and dropping the old one).
 */
async function main() {
  const config = loadConfig();
  const box = new SecretBox(config.secretsKey);
  const database = await resolveDatabaseUrl(config);
  const pool = new Pool({ connectionString: database.url, max: 1 });
  try {
    const changed = await reencryptSecrets(pool, box);
    console.error(`re-encrypted ${changed} secret(s) with key '${box.currentKeyId}'`);
  } finally {
    await pool.end();
    await database.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
