import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { Injectable } from '@nestjs/common';
import { BlockedReason, classifyAddress, isRefused, strictest } from './address-policy';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** What the check of a host found: the addresses to call, or why none may be called. */
export type HostCheck =
  { addresses: ResolvedAddress[] } | { unresolved: true } | { blocked: BlockedReason; address: string };

const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * The one check of a host the service is about to call for a caller (a webhook receiver, a
 * connector's shop): the name is resolved (at most 2 s; an IP literal is taken as it is) and
 * every address it resolves to is judged by the address policy (address-policy.ts). A host
 * with one refused address is refused: the strictest reason among them is given. Nothing is
 * cached; each check resolves again.
 */
@Injectable()
export class HostResolver {
  /** Every address `host` resolves to, in the resolver's order; [] when it does not resolve in time. */
  async lookup(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timeout')), LOOKUP_TIMEOUT_MS);
    });
    try {
      const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
      return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch {
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves `host` (a URL's hostname, brackets allowed) and judges every address. */
  async check(host: string, allowPrivate: boolean): Promise<HostCheck> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses: ResolvedAddress[] = net.isIP(bare)
      ? [{ address: bare, family: net.isIPv6(bare) ? 6 : 4 }]
      : await this.lookup(bare);
    if (addresses.length === 0) return { unresolved: true };
    const judged = addresses.map((a) => ({ address: a.address, reason: classifyAddress(a.address) }));
    const reason = strictest(judged.flatMap((j) => (j.reason === undefined ? [] : [j.reason])));
    if (isRefused(reason, allowPrivate))
      return { blocked: reason!, address: judged.find((j) => j.reason === reason)!.address };
    return { addresses };
  }
}
