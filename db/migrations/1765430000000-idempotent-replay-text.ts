import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An idempotent replay answers the first response as it was sent: `response_body` becomes `json`
 * (stored as text, keys in their order) instead of `jsonb` (which sorts keys). Records stored
 * before keep the order jsonb gave them; they expire within the idempotency TTL.
 */
export class IdempotentReplayText1765430000000 implements MigrationInterface {
  name = 'IdempotentReplayText1765430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb`,
    );
  }
}
