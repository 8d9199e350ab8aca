import { DynamicModule, Module } from '@nestjs/common';
import { CatalogModule } from '../../libs/contexts/catalog/catalog.module';
import { AppConfig } from '../../libs/platform/config/app-config';
import { PlatformCoreModule } from '../../libs/platform/platform-core.module';
import { PlatformHttpModule } from '../../libs/platform/platform-http.module';

/** The HTTP API: the platform pipeline plus every bounded context's routes. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformCoreModule.forRoot(config), PlatformHttpModule, CatalogModule],
    };
  }
}
