import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from '../../crypto/secret-box';
import { newId } from '../../persistence/ids';
import { IdempotencyKeyRecord } from './idempotency-key.entity';
import { openResponse, sealResponse } from './sealed-response';

export interface IdempotentRequest {
  entityId: string;
  livemode: boolean;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

export type Claim = { kind: 'claimed'; id: string } | { kind: 'existing'; record: IdempotencyKeyRecord };

/** Claims keys atomically, stores outcomes and purges expired records. */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Claims the key with one INSERT ... ON CONFLICT DO NOTHING: of N concurrent requests with
   * one key exactly one wins, and the others see the winner's row.
   */
  async claim(request: IdempotentRequest): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = newId();
      const inserted: { id: string }[] = await this.dataSource.query(
        `INSERT INTO idempotency_keys (id, entity_id, livemode, key, method, path, body_hash, status, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', now(), now() + make_interval(hours => $8))
         ON CONFLICT (entity_id, livemode, key) DO NOTHING RETURNING id`,
        [
          id,
          request.entityId,
          request.livemode,
          request.key,
          request.method,
          request.path,
          request.bodyHash,
          this.config.IDEMPOTENCY_TTL_HOURS,
        ],
      );
      if (inserted.length === 1) return { kind: 'claimed', id };
      // Expiry is judged by the database clock, and the expired row is deleted by id and expiry in
      // SQL: a JS Date has only millisecond precision, so matching expires_at by value could miss.
      const [found]: { id: string; expired: boolean }[] = await this.dataSource.query(
        `SELECT id, expires_at <= now() AS expired FROM idempotency_keys WHERE entity_id = $1 AND livemode = $2 AND key = $3`,
        [request.entityId, request.livemode, request.key],
      );
      if (!found) continue;
      if (!found.expired) {
        const record = await this.dataSource.getRepository(IdempotencyKeyRecord).findOneBy({ id: found.id });
        if (record) return { kind: 'existing', record };
        continue;
      }
      await this.dataSource.query(`DELETE FROM idempotency_keys WHERE id = $1 AND expires_at <= now()`, [
        found.id,
      ]);
    }
    throw new Error('Could not claim the idempotency key');
  }

  /**
   * Stores the outcome. `secretFields` (the route's, see RouteOptions) are kept only sealed with
   * SECRETS_KEY, in `response_secrets`: no plaintext secret is written to the table.
   */
  async complete(
    id: string,
    status: number,
    headers: Record<string, string>,
    body: unknown,
    secretFields: readonly string[] = [],
  ): Promise<void> {
    const stored = sealResponse(body, secretFields, this.secrets);
    await this.dataSource.getRepository(IdempotencyKeyRecord).update(
      { id },
      {
        status: 'completed',
        responseStatus: status,
        responseHeaders: headers,
        responseBody: stored.body as object,
        responseSecrets: stored.sealed,
      },
    );
  }

  /** The stored response body as first sent (sealed secret fields opened and put back). */
  replayBody(record: IdempotencyKeyRecord): unknown {
    return openResponse(record.responseBody, record.responseSecrets, this.secrets);
  }

  /** Forgets a claim whose request never reached its handler or failed on our side. */
  async release(id: string): Promise<void> {
    await this.dataSource.getRepository(IdempotencyKeyRecord).delete({ id });
  }

  /** Deletes expired records; returns how many. */
  async purgeExpired(): Promise<number> {
    const result = await this.dataSource.query(`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
    return Number(result?.[1] ?? 0);
  }
}
