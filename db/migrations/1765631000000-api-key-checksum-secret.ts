import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `platform_secrets`: secrets the server makes for itself and every instance shares. The first
 * is `api_key_checksum`, 32 random bytes (hex) under which API keys carry a checksum, so a
 * guessed key is refused without a lookup. Made here, once per database, from PostgreSQL's
 * strong random source (gen_random_uuid). Knowing it only lets a guesser reach the key lookup,
 * which is throttled; it is not a key to any data.
 */
export class ApiKeyChecksumSecret1765631000000 implements MigrationInterface {
  name = 'ApiKeyChecksumSecret1765631000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      INSERT INTO platform_secrets (name, value)
      VALUES ('api_key_checksum',
              encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS platform_secrets`);
  }
}
