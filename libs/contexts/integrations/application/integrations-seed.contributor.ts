import { Injectable } from '@nestjs/common';
import { LiveSeedContributor } from '#platform/seed/qa-seed.service';
import { IntegrationsService } from './integrations.service';

/**
 * QA fixture `integration_id`: a connected storefront integration on the sandbox adapter.
 * It runs after the catalog's fixtures (this context imports the catalog), so the storefront
 * listing of `storefront_listing_id` is attached to it on connection.
 */
@Injectable()
export class IntegrationsSeedContributor extends LiveSeedContributor {
  constructor(private readonly integrations: IntegrationsService) {
    super('integrations');
  }

  protected async fixtures(): Promise<Record<string, unknown>> {
    const integration = await this.integrations.create({
      type: 'storefront',
      name: 'QA storefront (sandbox)',
      credentials: { api_key: 'sandbox_qa_key_0001' },
      settings: { adapter: 'sandbox' },
    });
    return { integration_id: integration.id };
  }
}
