import { Injectable } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { SecretBox } from '#platform/crypto/secret-box';
import { HostResolver } from '#platform/net/host-resolver';
import type { AdapterName } from '../domain/connector-types';
import { IntegrationsError } from '../domain/integrations-error';
import type { IntegrationRecord } from '../infrastructure/integration.entity';
import { SandboxConnector } from '../infrastructure/sandbox-connector';
import { ShopifyConnector } from '../infrastructure/shopify-connector';
import { ConnectorAdapter, ConnectorConnection, ConnectorFailure } from './connector.port';

/** The purpose credentials are sealed for (SecretBox authenticates it with the value). */
export const CREDENTIALS_PURPOSE = 'integrations.credentials';

/**
 * The adapters by name, and the connection of an integration (its settings and its credentials,
 * opened only here and only for the call that needs them).
 */
@Injectable()
export class ConnectorAdapters {
  private readonly adapters: Record<AdapterName, ConnectorAdapter>;

  constructor(
    config: AppConfig,
    private readonly secrets: SecretBox,
    hosts: HostResolver,
  ) {
    this.adapters = {
      sandbox: new SandboxConnector(),
      shopify: new ShopifyConnector({
        timeoutMs: config.CONNECTOR_TIMEOUT_MS,
        allowPrivate: config.CONNECTOR_ALLOW_PRIVATE_TARGETS,
        hosts,
      }),
    };
  }

  sealCredentials(credentials: Record<string, string>): string {
    return this.secrets.seal(JSON.stringify(credentials), CREDENTIALS_PURPOSE);
  }

  of(integration: IntegrationRecord): { adapter: ConnectorAdapter; connection: ConnectorConnection } {
    if (integration.status !== 'connected' || integration.credentials === null)
      throw new IntegrationsError('invalid_state', {
        hint: `Integration '${integration.id}' is disconnected; connect a new one.`,
      });
    const credentials = JSON.parse(this.secrets.open(integration.credentials, CREDENTIALS_PURPOSE)) as Record<
      string,
      string
    >;
    return {
      adapter: this.adapters[integration.settings.adapter],
      connection: { integrationId: integration.id, settings: integration.settings, credentials },
    };
  }
}

/** The typed error of a connector failure, as a route answers it. */
export function failureError(failure: ConnectorFailure): IntegrationsError {
  switch (failure.kind) {
    case 'auth_failed':
      return new IntegrationsError('connector_auth_failed', { hint: failure.message });
    case 'rate_limited':
      return new IntegrationsError('connector_rate_limited', {
        hint: failure.message,
        details: { retry_after: failure.retryAfterSeconds ?? null },
      });
    default:
      return new IntegrationsError('connector_unreachable', { hint: failure.message });
  }
}
