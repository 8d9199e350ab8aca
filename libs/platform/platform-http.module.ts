import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ActivityController } from './activity/activity.controller';
import { ActivityService } from './activity/activity.service';
import { ApiGuard } from './auth/api.guard';
import { ApiKeysController } from './auth/api-keys.controller';
import { BearerStrategy } from './auth/bearer.strategy';
import { ApiPipelineInterceptor } from './http/api-pipeline.interceptor';
import { DescribedQuery } from './http/described-query';
import { ApiExceptionFilter } from './http/exception.filter';
import { RouteRegistry } from './http/route-registry';
import { ApiValidationPipe } from './http/validation.pipe';
import { HealthController } from './observability/health.controller';
import { ReadinessService } from './observability/readiness.service';
import { MaintenanceScheduler } from './queue/maintenance.processor';

/**
 * The request pipeline of the HTTP API, switched on for every route: guard (auth, isolation,
 * rate limit, scopes, mutation gates such as the entity freeze; the query's parameters against the
 * description; a GET's expand[] paths) -> one
 * interceptor on routes other than GET (idempotency, expand[], If-Match; attached by
 * `attachPipelineInterceptor` at start-up) -> validation -> handler -> a GET's reply (ETag,
 * If-None-Match, expansion; ApiExpressAdapter) -> filter.
 */
@Module({
  imports: [PassportModule, DiscoveryModule],
  controllers: [HealthController, ApiKeysController, ActivityController],
  providers: [
    BearerStrategy,
    RouteRegistry,
    ReadinessService,
    MaintenanceScheduler,
    ActivityService,
    ApiPipelineInterceptor,
    DescribedQuery,
    { provide: APP_GUARD, useClass: ApiGuard },
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ],
  exports: [RouteRegistry],
})
export class PlatformHttpModule {}
