import { BlockList, isIP } from 'node:net';

/** Normalizes `::ffff:1.2.3.4` (IPv4 seen through an IPv6 socket) to `1.2.3.4`. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/** Parses an address or CIDR range; returns null when it is neither. */
export function parseAllowlistEntry(
  entry: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { address, prefix, family } : null;
}

/** A compiled allowlist of IPv4 and IPv6 addresses and CIDR ranges. */
export class IpAllowlist {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseAllowlistEntry(entry);
      if (parsed) this.list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
  }

  allows(rawAddress: string | undefined): boolean {
    const address = normalizeAddress(rawAddress);
    if (!address) return false;
    const version = isIP(address);
    if (version === 0) return false;
    return this.list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  }
}
