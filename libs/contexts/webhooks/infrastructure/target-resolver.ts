import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../platform/config/app-config';
import { BlockedReason, checkUrlShape, classifyAddress, isRefused } from '../domain/target-policy';

const LOOKUP_TIMEOUT_MS = 2_000;
const CACHE_MS = 60_000;

/**
 * Applies the receiver-URL rule (https only; no loopback, private, link-local or metadata
 * address) to the addresses a host resolves to, at registration and again before each attempt.
 */
@Injectable()
export class TargetResolver {
  private readonly cache = new Map<
    string,
    { reason: BlockedReason | undefined; resolved: boolean; at: number }
  >();

  constructor(private readonly config: AppConfig) {}

  get allowPrivate(): boolean {
    return this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  }

  /** undefined when the URL may receive webhooks, else a hint saying why not. */
  async refusal(raw: string, options: { requireResolution?: boolean } = {}): Promise<string | undefined> {
    const shape = checkUrlShape(raw, this.allowPrivate);
    if ('hint' in shape) return shape.hint;
    const host = shape.url.hostname.replace(/^\[|\]$/g, '');
    const { reason, resolved } = await this.classifyHost(host);
    if (isRefused(reason, this.allowPrivate))
      return `url resolves to a ${reason!.replace('_', '-')} address, which may not receive webhooks.`;
    if (!resolved && options.requireResolution) return `url host '${host}' does not resolve.`;
    return undefined;
  }

  private async classifyHost(
    host: string,
  ): Promise<{ reason: BlockedReason | undefined; resolved: boolean }> {
    if (net.isIP(host)) return { reason: classifyAddress(host), resolved: true };
    const cached = this.cache.get(host);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached;
    let addresses: string[] = [];
    let resolved = true;
    try {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('lookup timeout')), LOOKUP_TIMEOUT_MS).unref(),
      );
      addresses = (await Promise.race([lookup(host, { all: true }), timeout])).map((a) => a.address);
    } catch {
      resolved = false;
    }
    // The strictest reason among all addresses: a host with one private address is refused.
    const reasons = addresses.map(classifyAddress).filter((r): r is BlockedReason => r !== undefined);
    const reason = reasons.find((r) => r === 'metadata') ?? reasons[0];
    const entry = { reason, resolved, at: Date.now() };
    this.cache.set(host, entry);
    return entry;
  }
}
