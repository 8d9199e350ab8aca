import { Injectable } from '@nestjs/common';
import { PlatformError } from '../errors/domain-error';
import { newId } from '../persistence/ids';
import { TransactionHost } from '../persistence/transaction-host';
import { Mode, RequestContext, SystemCaller } from '../tenancy/request-context';
import { ApiKeyRecord } from './api-key.entity';
import { ApiKeyService, ApiKeySpec, toApiKeyResource } from './api-key.service';
import { BusinessEntityRecord } from './business-entity.entity';

export interface NewEntity {
  code: string;
  name: string;
  baseCurrency: string;
  timezone?: string;
  /** Mode of the first key (live by default). */
  mode?: Mode;
}

export interface NewKey {
  entityCode: string;
  mode: Mode;
  name: string;
  scopes: string[];
}

const toEntityResource = (entity: BusinessEntityRecord) => ({
  id: entity.id,
  object: 'entity' as const,
  code: entity.code,
  name: entity.name,
  base_currency: entity.baseCurrency,
  timezone: entity.timezone,
  created_at: entity.createdAt.toISOString(),
});

/**
 * What an operator of a deployment does outside any API request (the admin command line):
 * create entities with their first key, and list, create, rotate and revoke keys of any entity.
 * Rotation and revocation go through ApiKeyService, as the routes do.
 */
@Injectable()
export class OperatorService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly keys: ApiKeyService,
  ) {}

  /** Creates an entity and its first key (all scopes); the plaintext is in the result only. */
  async createEntity(input: NewEntity) {
    if (!/^[a-z0-9]{1,32}$/.test(input.code))
      throw new PlatformError('parameter_invalid', {
        param: 'code',
        hint: 'code is 1 to 32 lowercase letters or digits; it becomes part of every key.',
      });
    if (!input.name.trim())
      throw new PlatformError('parameter_missing', { param: 'name', hint: 'name is required.' });
    if (!/^[A-Z]{3}$/.test(input.baseCurrency))
      throw new PlatformError('parameter_invalid', {
        param: 'currency',
        hint: 'The base currency is an ISO 4217 code in capitals, such as USD or EUR.',
      });
    return this.tx.run(async () => {
      const repo = this.tx.transactional.getRepository(BusinessEntityRecord);
      if (await repo.findOne({ where: { code: input.code } }))
        throw new PlatformError('resource_conflict', {
          param: 'code',
          hint: `An entity with code '${input.code}' already exists.`,
        });
      const entity = await repo.save(
        repo.create({
          id: newId(),
          code: input.code,
          name: input.name.trim(),
          timezone: input.timezone ?? 'UTC',
          baseCurrency: input.baseCurrency,
        }),
      );
      const { record, secret } = await this.keys.issue(entity, input.mode ?? 'live', {
        name: 'First administrator key',
        scopes: ['*'],
      });
      return { entity: toEntityResource(entity), key: toApiKeyResource(record, secret) };
    });
  }

  async listEntities() {
    const rows = await this.tx.manager
      .getRepository(BusinessEntityRecord)
      .find({ order: { createdAt: 'ASC', code: 'ASC' } });
    return rows.map(toEntityResource);
  }

  async createKey(input: NewKey) {
    const entity = await this.entityByCode(input.entityCode);
    const spec: ApiKeySpec = { name: input.name, scopes: input.scopes };
    this.keys.validateSpec(spec);
    return this.tx.run(async () => {
      const { record, secret } = await this.keys.issue(entity, input.mode, spec);
      return toApiKeyResource(record, secret);
    });
  }

  /** The keys of an entity, both modes, newest first. */
  async listKeys(entityCode: string) {
    const entity = await this.entityByCode(entityCode);
    const rows = await this.tx.manager
      .getRepository(ApiKeyRecord)
      .find({ where: { entityId: entity.id }, order: { id: 'DESC' } });
    return rows.map((key) => toApiKeyResource(key));
  }

  /** A new key with the same settings; the old one answers 401 api_key_revoked at once. */
  async rotateKey(keyId: string) {
    return this.asKeyOwner(keyId, () => this.keys.rotate(keyId));
  }

  async revokeKey(keyId: string) {
    return this.asKeyOwner(keyId, () => this.keys.revoke(keyId));
  }

  private async entityByCode(code: string): Promise<BusinessEntityRecord> {
    const entity = await this.tx.manager.getRepository(BusinessEntityRecord).findOne({ where: { code } });
    if (!entity)
      throw new PlatformError('not_found', { param: 'entity', hint: `No entity with code '${code}'.` });
    return entity;
  }

  /** Runs a key operation as its entity and mode, as the key-management routes do for a caller. */
  private async asKeyOwner<T>(keyId: string, fn: () => Promise<T>): Promise<T> {
    const key = /^[0-9a-f-]{36}$/i.test(keyId)
      ? await this.tx.manager.getRepository(ApiKeyRecord).findOne({ where: { id: keyId } })
      : null;
    if (!key) throw new PlatformError('not_found', { param: 'key', hint: `No API key with id '${keyId}'.` });
    const entity = await this.tx.manager
      .getRepository(BusinessEntityRecord)
      .findOneOrFail({ where: { id: key.entityId } });
    const operator: SystemCaller = {
      entityId: entity.id,
      entityCode: entity.code,
      livemode: key.livemode,
      apiKeyId: key.id,
      scopes: ['*'],
    };
    return RequestContext.runAsSystem(operator, fn, 'admin-cli');
  }
}
