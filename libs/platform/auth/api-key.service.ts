import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PlatformError } from '../errors/domain-error';
import { ListQueryDto } from '../http/list/list-query.dto';
import { listEnvelope } from '../http/list/paginate';
import { newId } from '../persistence/ids';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { Caller, Mode, RequestContext } from '../tenancy/request-context';
import { rawPool } from '../persistence/raw-pool';
import { ApiKeyCache } from './api-key-cache';
import type { AuthenticatedKey } from './authenticated-key';
import { ApiKeyRecord } from './api-key.entity';
import { parseAllowlistEntry } from './ip-allowlist';
import { hashKey, redactKey } from './key-format';
import { KeyChecksum } from './key-checksum';
import { isKnownScope, missingScopes } from './scopes';

export interface ApiKeySpec {
  name: string;
  scopes: string[];
  ipAllowlist?: string[];
  rateLimitPerMinute?: number | null;
  expiresAt?: Date | null;
}

export type { AuthenticatedKey };

export const toApiKeyResource = (key: ApiKeyRecord, secret?: string) => {
  const now = Date.now();
  const status = key.revokedAt
    ? 'revoked'
    : key.expiresAt && key.expiresAt.getTime() <= now
      ? 'expired'
      : 'active';
  return {
    id: key.id,
    object: 'api_key' as const,
    entity_id: key.entityId,
    name: key.name,
    mode: (key.livemode ? 'live' : 'test') as Mode,
    livemode: key.livemode,
    status,
    scopes: key.scopes,
    ip_allowlist: key.ipAllowlist,
    rate_limit_per_minute: key.rateLimitPerMinute,
    redacted_key: key.redacted,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    rotated_from_id: key.rotatedFromId,
    replaced_by_id: key.replacedById,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt.toISOString(),
    ...(secret ? { secret } : {}),
  };
};

@Injectable()
class ApiKeyRepository extends TenantRepository.of(ApiKeyRecord, 'api_key') {}

/** Issues, finds, rotates and revokes API keys. */
@Injectable()
export class ApiKeyService {
  private readonly keys: ApiKeyRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tx: TransactionHost,
    private readonly cache: ApiKeyCache,
    private readonly checksum: KeyChecksum,
  ) {
    this.keys = new ApiKeyRepository(tx);
  }

  /** Finds the key a bearer token names; null when it is malformed or unknown. Runs on every request. */
  async findByToken(token: string): Promise<AuthenticatedKey | null> {
    return this.lookup(token);
  }

  /**
   * findByToken, answered without a promise when the key cache knows the token (found, or known
   * unknown) or when the key's checksum is wrong (a guess: no lookup at all): the authentication
   * of a request then runs synchronously to the end.
   */
  lookup(token: string): AuthenticatedKey | null | Promise<AuthenticatedKey | null> {
    if (!this.checksum.plausible(token)) return null;
    const hash = hashKey(token);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    if (this.cache.isKnownUnknown(hash)) return null;
    return this.load(hash);
  }

  private async load(hash: string): Promise<AuthenticatedKey | null> {
    const startedAt = this.cache.begin();
    const { rows } = await rawPool(this.dataSource).query(
      `SELECT k.id, k.entity_id, k.livemode, k.name, k.redacted, k.scopes, k.ip_allowlist, k.rate_limit_per_minute,
              k.expires_at, k.revoked_at, k.rotated_from_id, k.replaced_by_id, k.created_by_key_id,
              k.created_at, k.updated_at, k.version, e.code AS entity_code
         FROM api_keys k JOIN entities e ON e.id = k.entity_id
        WHERE k.key_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) {
      this.cache.rememberUnknown(hash);
      return null;
    }
    const key = Object.assign(new ApiKeyRecord(), {
      id: row.id,
      entityId: row.entity_id,
      livemode: row.livemode,
      name: row.name,
      keyHash: hash,
      redacted: row.redacted,
      scopes: row.scopes,
      ipAllowlist: row.ip_allowlist,
      rateLimitPerMinute: row.rate_limit_per_minute,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      rotatedFromId: row.rotated_from_id,
      replacedById: row.replaced_by_id,
      createdByKeyId: row.created_by_key_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
    });
    const found = { key, entityCode: String(row.entity_code) };
    this.cache.set(hash, found, startedAt);
    return found;
  }

  validateSpec(spec: ApiKeySpec, caller?: Caller): void {
    spec.scopes.forEach((scope, i) => {
      if (!isKnownScope(scope)) {
        throw new PlatformError('parameter_invalid', {
          param: `scopes[${i}]`,
          hint: `Unknown scope '${scope}'.`,
        });
      }
    });
    if (caller) {
      const beyond = missingScopes(caller.scopes, spec.scopes.includes('*') ? ['*'] : spec.scopes);
      if (beyond.length > 0) {
        throw new PlatformError('insufficient_scope', {
          hint: 'A key can only grant scopes it holds itself.',
          details: { required: beyond.join(' ') },
        });
      }
    }
    (spec.ipAllowlist ?? []).forEach((entry, i) => {
      if (!parseAllowlistEntry(entry)) {
        throw new PlatformError('parameter_invalid', {
          param: `ip_allowlist[${i}]`,
          hint: `'${entry}' is not an IPv4/IPv6 address or CIDR range.`,
        });
      }
    });
    if (spec.expiresAt && spec.expiresAt.getTime() <= Date.now() && caller) {
      throw new PlatformError('parameter_invalid', {
        param: 'expires_at',
        hint: 'expires_at must be in the future.',
      });
    }
  }

  /** Creates a key for an entity and mode; used by the routes and the seed. Returns the plaintext once. */
  async issue(
    entity: { id: string; code: string },
    mode: Mode,
    spec: ApiKeySpec,
    extra: Partial<ApiKeyRecord> = {},
  ) {
    const secret = this.checksum.generate(mode, entity.code);
    const record = this.tx.transactional.getRepository(ApiKeyRecord).create({
      id: newId(),
      entityId: entity.id,
      livemode: mode === 'live',
      name: spec.name,
      keyHash: hashKey(secret),
      redacted: redactKey(secret),
      scopes: [...new Set(spec.scopes)],
      ipAllowlist: spec.ipAllowlist ?? [],
      rateLimitPerMinute: spec.rateLimitPerMinute ?? null,
      expiresAt: spec.expiresAt ?? null,
      revokedAt: null,
      rotatedFromId: null,
      replacedById: null,
      createdByKeyId: null,
      ...extra,
    });
    const saved = await this.tx.transactional.getRepository(ApiKeyRecord).save(record);
    return { record: saved, secret };
  }

  async create(spec: ApiKeySpec, mode: Mode | undefined) {
    const caller = RequestContext.caller();
    const callerMode: Mode = caller.livemode ? 'live' : 'test';
    if (mode && mode !== callerMode) {
      throw new PlatformError('parameter_invalid', {
        param: 'mode',
        hint: `A ${callerMode} key manages ${callerMode} keys only; use a ${mode} key to create ${mode} keys.`,
      });
    }
    this.validateSpec(spec, caller);
    return this.tx.run(async () => {
      const { record, secret } = await this.issue(
        { id: caller.entityId, code: caller.entityCode },
        callerMode,
        spec,
        {
          createdByKeyId: caller.apiKeyId,
        },
      );
      return toApiKeyResource(record, secret);
    });
  }

  async list(query: ListQueryDto, url: string) {
    const page = await this.keys.page(query, { url });
    return listEnvelope(
      page.rows.map((k) => toApiKeyResource(k)),
      page,
      url,
    );
  }

  async retrieve(id: string) {
    return toApiKeyResource(await this.keys.getById(id));
  }

  /** New key with the same name, scopes, mode, rate limit and allowlist; the old one is revoked at once. */
  async rotate(id: string) {
    return this.tx.run(async () => {
      const old = await this.keys.getForUpdate(id);
      if (old.revokedAt) {
        throw new PlatformError('invalid_state', {
          hint: 'The key is revoked; only an active key can be rotated.',
        });
      }
      const caller = RequestContext.caller();
      const { record, secret } = await this.issue(
        { id: old.entityId, code: caller.entityCode },
        old.livemode ? 'live' : 'test',
        {
          name: old.name,
          scopes: old.scopes,
          ipAllowlist: old.ipAllowlist,
          rateLimitPerMinute: old.rateLimitPerMinute,
          // Rotation replaces a key, so the new one starts without the old key's expiry.
          expiresAt: null,
        },
        { rotatedFromId: old.id, createdByKeyId: caller.apiKeyId },
      );
      old.revokedAt = new Date();
      old.replacedById = record.id;
      await this.keys.save(old);
      await this.cache.announce(this.tx.transactional, old.keyHash);
      return toApiKeyResource(record, secret);
    });
  }

  async revoke(id: string) {
    return this.tx.run(async () => {
      const key = await this.keys.getForUpdate(id);
      if (!key.revokedAt) {
        key.revokedAt = new Date();
        await this.keys.save(key);
        await this.cache.announce(this.tx.transactional, key.keyHash);
      }
      return toApiKeyResource(key);
    });
  }
}
