import { Module } from '@nestjs/common';
import { ConnectorsController, IntegrationsController } from './http/integrations.controller';
import { IntegrationsCoreModule } from './integrations-core.module';

/** Integrations' routes: the connector catalog, integrations, their tests, imports and runs. */
@Module({
  imports: [IntegrationsCoreModule],
  controllers: [ConnectorsController, IntegrationsController],
})
export class IntegrationsHttpModule {}
