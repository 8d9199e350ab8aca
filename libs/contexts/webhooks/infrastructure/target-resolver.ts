import { Injectable } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { HostResolver } from '#platform/net/host-resolver';
import { PinnedAddress, TargetDecision, WebhookTargets } from '../application/delivery-ports';
import { checkUrlShape } from '../domain/target-policy';

export type { PinnedAddress, TargetDecision };

/**
 * Applies the receiver-URL rule (target-policy.ts, then the platform's host check) to the
 * addresses a host resolves to, at registration and again for each attempt. Nothing is cached:
 * each attempt resolves once, every address is checked, and the attempt connects to the first of
 * them (a DNS answer that changes between the check and the connection cannot redirect it).
 */
@Injectable()
export class TargetResolver extends WebhookTargets {
  constructor(
    private readonly config: AppConfig,
    private readonly hosts: HostResolver,
  ) {
    super();
  }

  get allowPrivate(): boolean {
    return this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  }

  /** undefined when the URL may receive webhooks, else a hint saying why not. A name that does not resolve is refused. */
  async refusal(raw: string): Promise<string | undefined> {
    const decision = await this.resolve(raw);
    return 'refusal' in decision ? decision.refusal : undefined;
  }

  /** Resolves the URL's host once and checks every address; the pinned address or why not. */
  async resolve(raw: string): Promise<TargetDecision> {
    const shape = checkUrlShape(raw, this.allowPrivate);
    if ('hint' in shape) return { refusal: shape.hint };
    const host = shape.url.hostname.replace(/^\[|\]$/g, '');
    const checked = await this.hosts.check(host, this.allowPrivate);
    if ('unresolved' in checked) return { refusal: `url host '${host}' does not resolve.` };
    if ('blocked' in checked)
      return {
        refusal: `url resolves to a ${checked.blocked.replace(/_/g, '-')} address, which may not receive webhooks.`,
      };
    return { pinned: checked.addresses[0] };
  }
}
