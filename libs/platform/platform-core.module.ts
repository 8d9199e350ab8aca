import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyCache } from './auth/api-key-cache';
import { ApiKeyRecord } from './auth/api-key.entity';
import { ApiKeyService } from './auth/api-key.service';
import { KeyChecksum } from './auth/key-checksum';
import { BusinessEntityRecord } from './auth/business-entity.entity';
import { MutationGates } from './auth/mutation-gate';
import { OperatorService } from './auth/operator.service';
import { ActivityRecord } from './activity/activity.entity';
import { ImportRegistry } from './imports/import-registry';
import { AuthFailureLimiter } from './auth/auth-failure-limiter';
import { SecretBox } from './crypto/secret-box';
import { HostResolver } from './net/host-resolver';
import {
  PostgresRateLimitStore,
  RateLimiter,
  RateLimitStore,
  RedisRateLimitStore,
} from './auth/rate-limiter';
import { AppConfig } from './config/app-config';
import { EventPublisher } from './events/event-publisher';
import { OutboxEventRecord } from './events/outbox-event.entity';
import { OutboxReader } from './events/outbox-reader';
import { IdempotencyKeyRecord } from './http/idempotency/idempotency-key.entity';
import { IdempotencyService } from './http/idempotency/idempotency.service';
import { ResourceRegistry } from './http/expand/expand-registry';
import { dataSourceOptions } from './persistence/database';
import { TransactionHost } from './persistence/transaction-host';
import { AppMetrics } from './observability/metrics';
import { EntityProfileCache } from './tenancy/entity-profile.cache';
import { EntityProfiles } from './tenancy/entity-profiles';
import { ActivityLog } from './activity/activity-log';
import { QueueModule } from './queue/queue.module';
import { QUEUE_NAMES } from './queue/queues';
import { QaSeedService } from './seed/qa-seed.service';
import { DataSource } from 'typeorm';
import { Clock } from './time/clock';

const PLATFORM_ENTITIES = [
  BusinessEntityRecord,
  ApiKeyRecord,
  OutboxEventRecord,
  IdempotencyKeyRecord,
  ActivityRecord,
];

/**
 * The shared kernel every app imports: configuration, the database (migrations only), the
 * transaction helper, the outbox publisher, API keys and the queue connection.
 */
@Global()
@Module({})
export class PlatformCoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.DATABASE_URL) throw new Error('PlatformCoreModule needs a resolved DATABASE_URL');
    return {
      module: PlatformCoreModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(config.DATABASE_URL, {}, config.DB_POOL_MAX),
          autoLoadEntities: true,
        }),
        TypeOrmModule.forFeature(PLATFORM_ENTITIES),
        QueueModule.forRoot(config),
        BullModule.registerQueue({ name: QUEUE_NAMES.maintenance }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        Clock,
        TransactionHost,
        EventPublisher,
        OutboxReader,
        ApiKeyCache,
        KeyChecksum,
        ApiKeyService,
        OperatorService,
        IdempotencyService,
        ResourceRegistry,
        QaSeedService,
        MutationGates,
        ImportRegistry,
        {
          // One store of shared counters: per-key request budgets and failed authentications.
          provide: RateLimitStore,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            config.REDIS_URL
              ? new RedisRateLimitStore(config.REDIS_URL, config.QUEUE_PREFIX)
              : new PostgresRateLimitStore(dataSource),
        },
        {
          provide: RateLimiter,
          inject: [RateLimitStore, Clock],
          useFactory: (store: RateLimitStore, clock: Clock) => new RateLimiter(store, clock),
        },
        AuthFailureLimiter,
        AppMetrics,
        EntityProfileCache,
        EntityProfiles,
        { provide: SecretBox, useFactory: () => new SecretBox(config.secretsKey) },
        HostResolver,
        ActivityLog,
      ],
      exports: [
        AppConfig,
        Clock,
        ApiKeyCache,
        QaSeedService,
        MutationGates,
        ImportRegistry,
        TransactionHost,
        EventPublisher,
        OutboxReader,
        ApiKeyService,
        KeyChecksum,
        OperatorService,
        IdempotencyService,
        ResourceRegistry,
        RateLimiter,
        AuthFailureLimiter,
        AppMetrics,
        EntityProfileCache,
        EntityProfiles,
        SecretBox,
        HostResolver,
        ActivityLog,
        BullModule,
        TypeOrmModule,
      ],
    };
  }
}
