import { Injectable } from '@nestjs/common';
import { ChannelListingsService } from '#contexts/catalog';
import { AppConfig } from '#platform/config/app-config';
import { HostResolver } from '#platform/net/host-resolver';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import {
  checkCredentials,
  ConnectorDefinition,
  CONNECTORS,
  ConnectorType,
  FieldSpec,
  credentialsHint,
  resolveSettings,
  SettingsInput,
} from '../domain/connector-types';
import { IntegrationsError } from '../domain/integrations-error';
import { shopTargetRefusal } from '../domain/shop-url';
import { IntegrationRecord } from '../infrastructure/integration.entity';
import { IntegrationRepository, IntegrationRunRepository } from '../infrastructure/integration.repository';
import { ConnectorAdapters, failureError } from './connector-adapters';
import { ConnectorFailure } from './connector.port';
import {
  IntegrationResource,
  IntegrationRunResource,
  toIntegrationResource,
  toRunResource,
} from './integration.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';

export interface IntegrationInput {
  type?: ConnectorType;
  name?: string;
  credentials?: Record<string, string>;
  settings?: SettingsInput;
}

export interface ConnectionTestResult {
  object: 'integration_test';
  integration_id: string;
  ok: true;
  adapter: string;
  shop: string;
}

/**
 * Integrations: connector configurations of the entity. Credentials are sealed with SECRETS_KEY
 * on the way in and opened only to call the remote side; no answer, event or log line carries
 * them. Connecting attaches the channel's listings that have no integration; disconnecting
 * (DELETE) erases the credentials and detaches the listings, which keep their history.
 */
@Injectable()
export class IntegrationsService extends ResourceReads<
  IntegrationRecord,
  IntegrationResource,
  ListQueryDto & { type?: ConnectorType; status?: string }
> {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly runs: IntegrationRunRepository,
    private readonly tx: TransactionHost,
    private readonly adapters: ConnectorAdapters,
    private readonly listings: ChannelListingsService,
    private readonly config: AppConfig,
    private readonly hosts: HostResolver,
  ) {
    super(integrations, toIntegrationResource);
  }

  connectors(url: string): { object: 'list'; data: ConnectorDefinition[]; has_more: false; url: string } {
    // A default is told in the field's description (null defaults are told there already).
    const withoutNullDefaults = (fields: readonly FieldSpec[]) =>
      fields.map(({ default: value, ...field }) =>
        value === null || value === undefined
          ? field
          : { ...field, description: `${field.description} Default: ${JSON.stringify(value)}.` },
      );
    const data = CONNECTORS.map((c) => ({
      ...c,
      settings: withoutNullDefaults(c.settings),
      credentials: withoutNullDefaults(c.credentials),
    }));
    return { object: 'list', data, has_more: false, url };
  }

  /**
   * The shop URL's check at registration (create, and PATCH of the settings): the URL, then its
   * host resolved and every address checked, as webhook receiver URLs are (HostResolver).
   */
  private async checkShopUrl(settings: { shop_url: string | null }): Promise<void> {
    if (settings.shop_url === null) return;
    const refusal = await shopTargetRefusal(
      settings.shop_url,
      this.config.CONNECTOR_ALLOW_PRIVATE_TARGETS,
      this.hosts,
    );
    if (refusal)
      throw new IntegrationsError('parameter_invalid', { param: 'settings.shop_url', hint: refusal });
  }

  async create(input: IntegrationInput): Promise<IntegrationResource> {
    const type = input.type!;
    const settings = resolveSettings(type, undefined, input.settings);
    await this.checkShopUrl(settings);
    const credentials = input.credentials ?? {};
    checkCredentials(type, settings.adapter, credentials);
    return this.tx.run(async () => {
      const record = await this.integrations.create({
        type,
        name: input.name!,
        status: 'connected',
        credentials: this.adapters.sealCredentials(credentials),
        credentialsHint: credentialsHint(credentials),
        settings,
        lastImportAt: null,
        disconnectedAt: null,
      });
      await this.listings.attachUnassigned(type, record.id);
      return toIntegrationResource(record);
    });
  }

  async update(id: string, input: IntegrationInput): Promise<IntegrationResource> {
    return this.tx.run(async () => {
      const record = await this.integrations.getForUpdate(id);
      this.assertConnected(record);
      const settings = resolveSettings(record.type, record.settings, input.settings);
      // A new shop URL is checked as at create; the stored one was when it was set (and is before each call).
      if (settings.shop_url !== record.settings.shop_url) await this.checkShopUrl(settings);
      if (input.credentials !== undefined) {
        checkCredentials(record.type, settings.adapter, input.credentials);
        record.credentials = this.adapters.sealCredentials(input.credentials);
        record.credentialsHint = credentialsHint(input.credentials);
      } else if (settings.adapter !== record.settings.adapter) {
        checkCredentials(record.type, settings.adapter, this.adapters.of(record).connection.credentials);
      }
      if (input.name !== undefined) record.name = input.name;
      record.settings = settings;
      return toIntegrationResource(await this.integrations.save(record));
    });
  }

  /** Disconnects: the credentials are erased, listings detached; the integration and its runs stay readable. */
  async delete(id: string): Promise<IntegrationResource> {
    return this.tx.run(async () => {
      const record = await this.integrations.getForUpdate(id);
      this.assertConnected(record);
      record.status = 'disconnected';
      record.credentials = null;
      record.credentialsHint = null;
      record.disconnectedAt = new Date();
      await this.listings.detachIntegration(record.id);
      return toIntegrationResource(await this.integrations.save(record));
    });
  }

  /** Checks the credentials against the remote side: ok, or the typed failure (never a 500). */
  async test(id: string): Promise<ConnectionTestResult> {
    const record = await this.integrations.getById(id);
    this.assertConnected(record);
    const { adapter, connection } = this.adapters.of(record);
    try {
      const { shop } = await adapter.test(connection);
      return { object: 'integration_test', integration_id: record.id, ok: true, adapter: adapter.name, shop };
    } catch (error) {
      if (error instanceof ConnectorFailure) throw failureError(error);
      throw new IntegrationsError('connector_unreachable', { hint: 'The connector failed unexpectedly.' });
    }
  }

  async listRuns(id: string, query: ListQueryDto, url: string): Promise<ListPage<IntegrationRunResource>> {
    await this.integrations.getById(id);
    const page = await this.runs.listOfIntegration(id, query, url);
    return listEnvelope(page.rows.map(toRunResource), page, url);
  }

  private assertConnected(record: IntegrationRecord): void {
    if (record.status !== 'connected')
      throw new IntegrationsError('invalid_state', {
        hint: `Integration '${record.id}' is disconnected; connect a new one.`,
      });
  }
}
