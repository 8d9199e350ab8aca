import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Why the service may not call an address (webhook receivers, connector shops: every outbound
 * request to a URL a caller gave). `metadata`, `multicast`, `broadcast`, `unspecified` and
 * `reserved` are refused always; the private-network reasons only where the caller's setting
 * allows private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS, CONNECTOR_ALLOW_PRIVATE_TARGETS).
 */
export type BlockedReason =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'carrier_grade_nat'
  | 'benchmarking'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'reserved';

const PRIVATE_NETWORK: ReadonlySet<BlockedReason> = new Set([
  'loopback',
  'private',
  'link_local',
  'carrier_grade_nat',
  'benchmarking',
]);

const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);
const METADATA_V6 = new Set(['fd00:ec2::254']);

/** ipaddr.js range names (IPv4) and what they mean here; any other non-unicast range is reserved. */
const V4_REASONS: Record<string, BlockedReason> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier_grade_nat',
  private: 'private',
};
const V6_REASONS: Record<string, BlockedReason> = {
  unspecified: 'unspecified',
  linkLocal: 'link_local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  benchmarking: 'benchmarking',
};
/** RFC 2544 benchmarking (ipaddr.js counts it as reserved). */
const BENCHMARKING_V4 = ipaddr.IPv4.parseCIDR('198.18.0.0/15');
/** RFC 8215 local-use NAT64 prefix: translates to a private network's addresses. */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

const v4Of = (bytes: number[]) => new ipaddr.IPv4(bytes);

function classifyV4(address: ipaddr.IPv4): BlockedReason | undefined {
  if (METADATA_V4.has(address.toString())) return 'metadata';
  if (address.match(BENCHMARKING_V4)) return 'benchmarking';
  const range = address.range();
  if (range === 'unicast') return undefined;
  return V4_REASONS[range] ?? 'reserved';
}

/**
 * The IPv4 addresses an IPv6 address carries and reaches: IPv4-mapped and translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16), Teredo (2001::/32: server and
 * obfuscated client) and the deprecated IPv4-compatible ::a.b.c.d.
 */
export function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = address.toByteArray();
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4Of(bytes.slice(12, 16))];
    case '6to4':
      return [v4Of(bytes.slice(2, 6))];
    case 'teredo':
      return [v4Of(bytes.slice(4, 8)), v4Of(bytes.slice(12, 16).map((b) => b ^ 0xff))];
    case 'unspecified':
    case 'loopback':
      return [];
    default:
      return bytes.slice(0, 12).every((b) => b === 0) ? [v4Of(bytes.slice(12, 16))] : [];
  }
}

function classifyV6(address: ipaddr.IPv6): BlockedReason | undefined {
  if (METADATA_V6.has(address.toString())) return 'metadata';
  if (address.match(LOCAL_NAT64)) return 'private';
  const embedded = embeddedIpv4(address);
  if (embedded.length > 0) {
    // An embedding is judged as the IPv4 addresses it reaches: the strictest of them.
    const reasons = embedded.map(classifyV4).filter((r): r is BlockedReason => r !== undefined);
    return strictest(reasons);
  }
  const range = address.range();
  if (range === 'unicast') return undefined;
  return V6_REASONS[range] ?? 'reserved';
}

/** The reason that refuses most: one that is always refused before a private-network one. */
export function strictest(reasons: BlockedReason[]): BlockedReason | undefined {
  return reasons.find((r) => r === 'metadata') ?? reasons.find((r) => !PRIVATE_NETWORK.has(r)) ?? reasons[0];
}

/** Classifies an IP address literal (ipaddr.js ranges); undefined means a public unicast address. */
export function classifyAddress(ip: string): BlockedReason | undefined {
  const literal = ip.replace(/^\[|\]$/g, '').split('%')[0];
  if (!net.isIP(literal)) return undefined;
  const address = ipaddr.parse(literal);
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
}

/** Whether `reason` is refused under the current setting: only private-network reasons are allowed by it. */
export const isRefused = (reason: BlockedReason | undefined, allowPrivateTargets: boolean): boolean =>
  reason !== undefined && !(allowPrivateTargets && PRIVATE_NETWORK.has(reason));
