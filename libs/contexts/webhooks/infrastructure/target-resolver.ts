import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { PinnedAddress, TargetDecision, WebhookTargets } from '../application/delivery-ports';
import { checkUrlShape, classifyAddress, isRefused, strictest } from '../domain/target-policy';

const LOOKUP_TIMEOUT_MS = 2_000;

export type { PinnedAddress, TargetDecision };

/**
 * Applies the receiver-URL rule (target-policy.ts) to the addresses a host resolves to, at
 * registration and again for each attempt. Nothing is cached: each attempt resolves once, every
 * address is checked, and the attempt connects to the first of them (a DNS answer that changes
 * between the check and the connection cannot redirect it).
 */
@Injectable()
export class TargetResolver extends WebhookTargets {
  constructor(private readonly config: AppConfig) {
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
    let addresses: PinnedAddress[];
    if (net.isIP(host)) {
      addresses = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
    } else {
      try {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('lookup timeout')), LOOKUP_TIMEOUT_MS);
        });
        try {
          const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
          addresses = found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
        } finally {
          clearTimeout(timer);
        }
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) return { refusal: `url host '${host}' does not resolve.` };
    }
    // The strictest reason among all addresses: a host with one refused address is refused.
    const reason = strictest(addresses.map((a) => classifyAddress(a.address)).filter((r) => r !== undefined));
    if (isRefused(reason, this.allowPrivate))
      return {
        refusal: `url resolves to a ${reason!.replace(/_/g, '-')} address, which may not receive webhooks.`,
      };
    return { pinned: addresses[0] };
  }
}
