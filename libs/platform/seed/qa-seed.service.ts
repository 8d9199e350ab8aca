import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiKeyCache } from '../auth/api-key-cache';
import { ApiKeyService, ApiKeySpec } from '../auth/api-key.service';
import { BusinessEntityRecord } from '../auth/business-entity.entity';
import { READ_SCOPES, SCOPES } from '../auth/scopes';
import { AppConfig } from '../config/app-config';
import { newId } from '../persistence/ids';
import { TransactionHost } from '../persistence/transaction-host';
import { Mode, RequestContext, SystemCaller } from '../tenancy/request-context';

export const QA_ENTITY_CODES = { primary: 'qa1', secondary: 'qa2' } as const;

export interface SeededEntity {
  id: string;
  code: string;
  keys: Record<string, string>;
}

export interface QaSeedDocument {
  base_url: string;
  entities: { primary: SeededEntity; secondary: SeededEntity };
  fixtures: Record<string, unknown>;
}

/** What a context adds to the QA dataset; it runs as the primary entity's callers. */
export interface SeedContributor {
  name: string;
  /**
   * The contributor this one runs before (its fixtures are needed there). Contributors otherwise
   * run in the order they register: a module's after those of the modules it imports.
   */
  before?: string;
  /** Runs inside one transaction; `as(mode)` runs code as a caller of the primary entity in that mode. */
  seed(ctx: {
    entity: SeededEntity;
    as: <T>(mode: Mode, fn: () => Promise<T>) => Promise<T>;
  }): Promise<Record<string, unknown>>;
}

const ALL = ['*'];

/** The QA seed (docs/reference/qa-seed.md): removes and recreates the QA entities, their keys and fixtures. */
@Injectable()
export class QaSeedService {
  private readonly contributors: SeedContributor[] = [];

  constructor(
    private readonly tx: TransactionHost,
    private readonly keys: ApiKeyService,
    private readonly config: AppConfig,
    private readonly keyCache: ApiKeyCache,
  ) {}

  register(contributor: SeedContributor): void {
    const next = this.contributors.findIndex((c) => c.name === contributor.before);
    if (next === -1) this.contributors.push(contributor);
    else this.contributors.splice(next, 0, contributor);
  }

  async run(): Promise<QaSeedDocument> {
    return this.tx.run(async () => {
      await this.removeQaEntities();
      const primaryRecord = await this.createEntity(QA_ENTITY_CODES.primary, 'QA Primary Ltd');
      const secondaryRecord = await this.createEntity(QA_ENTITY_CODES.secondary, 'QA Secondary Ltd');
      const past = new Date(Date.now() - 24 * 60 * 60 * 1000);
      const specs: Record<string, { mode: Mode; spec: ApiKeySpec; revoke?: boolean }> = {
        live: { mode: 'live', spec: { name: 'QA live', scopes: ALL } },
        test: { mode: 'test', spec: { name: 'QA test', scopes: ALL } },
        read_only: { mode: 'live', spec: { name: 'QA read only', scopes: [...READ_SCOPES] } },
        orders_only: {
          mode: 'live',
          spec: { name: 'QA orders only', scopes: ['orders:read', 'orders:write'] },
        },
        revoked: { mode: 'live', spec: { name: 'QA revoked', scopes: ALL }, revoke: true },
        expired: { mode: 'live', spec: { name: 'QA expired', scopes: ALL, expiresAt: past } },
        ip_restricted: {
          mode: 'live',
          spec: { name: 'QA IP restricted', scopes: ALL, ipAllowlist: ['203.0.113.0/24'] },
        },
        migration: { mode: 'live', spec: { name: 'QA migration', scopes: [...SCOPES] } },
      };
      const primary: SeededEntity = { id: primaryRecord.id, code: primaryRecord.code, keys: {} };
      for (const [name, { mode, spec, revoke }] of Object.entries(specs)) {
        const { secret } = await this.keys.issue(
          primaryRecord,
          mode,
          spec,
          revoke ? { revokedAt: new Date() } : {},
        );
        primary.keys[name] = secret;
      }
      const secondary: SeededEntity = { id: secondaryRecord.id, code: secondaryRecord.code, keys: {} };
      secondary.keys.live = (
        await this.keys.issue(secondaryRecord, 'live', { name: 'QA secondary live', scopes: ALL })
      ).secret;

      const fixtures: Record<string, unknown> = {};
      const as = <T>(mode: Mode, fn: () => Promise<T>) =>
        RequestContext.runAsSystem(this.systemCaller(primaryRecord, mode), fn, 'seed');
      for (const contributor of this.contributors) {
        Object.assign(fixtures, await contributor.seed({ entity: primary, as }));
      }
      return { base_url: this.config.baseUrl, entities: { primary, secondary }, fixtures };
    });
  }

  private systemCaller(entity: BusinessEntityRecord, mode: Mode): SystemCaller {
    return {
      entityId: entity.id,
      entityCode: entity.code,
      livemode: mode === 'live',
      apiKeyId: entity.id,
      scopes: ALL,
    };
  }

  private async createEntity(code: string, name: string): Promise<BusinessEntityRecord> {
    const repo = this.tx.transactional.getRepository(BusinessEntityRecord);
    return repo.save(repo.create({ id: newId(), code, name, timezone: 'UTC', baseCurrency: 'USD' }));
  }

  /** Deletes the QA entities and every row of every tenant table they own. */
  private async removeQaEntities(): Promise<void> {
    const manager = this.tx.transactional;
    const rows: { id: string }[] = await manager.query(`SELECT id FROM entities WHERE code = ANY($1)`, [
      Object.values(QA_ENTITY_CODES),
    ]);
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    const tables: { table_name: string }[] = await manager.query(
      `SELECT table_name FROM information_schema.columns
       WHERE column_name = 'entity_id' AND table_schema = current_schema() AND table_name <> 'entities'`,
    );
    // Foreign keys between tenant tables would otherwise dictate a deletion order.
    await manager.query(`SET LOCAL session_replication_role = replica`);
    for (const { table_name } of tables) {
      await manager.query(`DELETE FROM "${table_name}" WHERE entity_id = ANY($1)`, [ids]);
    }
    await manager.query(`DELETE FROM entities WHERE id = ANY($1)`, [ids]);
    await this.keyCache.announce(manager, '*');
    await manager.query(`SET LOCAL session_replication_role = origin`);
  }
}

/**
 * A context's QA fixtures made as the primary entity's live caller: registered with the QA seed
 * at start-up under `name`; `fixtures()` returns what the seed document lists for the context.
 */
export abstract class LiveSeedContributor implements OnModuleInit {
  @Inject(QaSeedService) private readonly qaSeed!: QaSeedService;

  constructor(
    private readonly name: string,
    private readonly order: Pick<SeedContributor, 'before'> = {},
  ) {}

  onModuleInit(): void {
    this.qaSeed.register({
      name: this.name,
      ...this.order,
      seed: ({ as }) => as('live', () => this.fixtures()),
    });
  }

  protected abstract fixtures(): Promise<Record<string, unknown>>;
}
