import { DynamicModule, Module, Type } from '@nestjs/common';
import { CatalogModule } from '../../libs/contexts/catalog/catalog.module';
import { SalesModule } from '../../libs/contexts/sales/sales.module';
import { AppConfig } from '../../libs/platform/config/app-config';
import { PlatformCoreModule } from '../../libs/platform/platform-core.module';
import { PlatformHttpModule } from '../../libs/platform/platform-http.module';

/** The HTTP API: the platform pipeline plus every bounded context's routes. */
@Module({})
export class AppModule {
  /** `extraModules` are added after the product's modules (tests mount test-only routes this way). */
  static forRoot(config: AppConfig, extraModules: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformCoreModule.forRoot(config),
        PlatformHttpModule,
        CatalogModule,
        SalesModule,
        ...extraModules,
      ],
    };
  }
}
