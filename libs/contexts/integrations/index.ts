/** The integrations context's public surface: the only file other contexts and apps import. */
export { IntegrationsCoreModule } from './integrations-core.module';
export { IntegrationsHttpModule } from './integrations-http.module';
export { IntegrationsWorkerModule } from './integrations-worker.module';
export { IntegrationsService } from './application/integrations.service';
export { OrderImportService } from './application/order-import.service';
export * from './integrations.scopes';
