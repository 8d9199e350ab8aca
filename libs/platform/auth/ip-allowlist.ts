import { BlockList, isIP } from 'node:net';

/** Normalizes `::ffff:1.2.3.4` (IPv4 seen through an IPv6 socket) to `1.2.3.4`. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const HEXTET = '[0-9a-fA-F]{1,4}';
/** An IPv4 address with an optional prefix of 0-32. */
const IPV4_RANGE = `${OCTET}(?:\\.${OCTET}){3}(?:/(?:3[0-2]|[12]?\\d))?`;
/**
 * An IPv6 address, written in full (eight groups) or with `::` standing for one or more zero
 * groups (at most seven groups written around it), with an optional prefix of 0-128. An embedded
 * IPv4 tail and a zone are not taken: list such an address in its IPv4 or plain hex form.
 */
const IPV6_ADDRESS = [
  `(?:${HEXTET}:){7}(?:${HEXTET}|:)`,
  `::(?:${HEXTET}(?::${HEXTET}){0,6})?`,
  ...[1, 2, 3, 4, 5, 6].map((before) => `(?:${HEXTET}:){${before}}(?::|(?::${HEXTET}){1,${7 - before}})`),
].join('|');
const IPV6_RANGE = `(?:${IPV6_ADDRESS})(?:/(?:12[0-8]|1[01]\\d|[1-9]?\\d))?`;

/**
 * What an IP allowlist entry may be: an IPv4 or IPv6 address, or a CIDR range (an address and
 * its prefix length). The request validator checks this pattern and the description shows it;
 * every string it matches is one parseAllowlistEntry reads.
 */
export const IP_RANGE_PATTERN = new RegExp(`^(?:${IPV4_RANGE}|${IPV6_RANGE})$`);

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
