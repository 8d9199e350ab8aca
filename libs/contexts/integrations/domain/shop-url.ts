import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The rule for a connector's shop URL (outbound requests to a third party): https to a public
 * host; plain http, localhost and private-network addresses only where the service allows them
 * (CONNECTOR_ALLOW_PRIVATE_TARGETS, for a shop on this machine or a test server). Cloud metadata
 * addresses are refused always. Answers why not, or undefined.
 */
export function shopUrlRefusal(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'shop_url is not an absolute URL.';
  }
  if (url.username || url.password) return 'shop_url may not carry a user name or password.';
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return 'shop_url must be an https URL.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    return 'shop_url may not name this machine.';
  if (net.isIP(host)) return addressRefusal(host, allowPrivate);
  return undefined;
}

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

/** Why a resolved address may not be called, or undefined. */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  if (METADATA.has(address)) return 'shop_url resolves to a cloud metadata address.';
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'shop_url resolves to an address that is not valid.';
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  const privateRanges = ['private', 'loopback', 'linkLocal', 'uniqueLocal', 'carrierGradeNat'];
  if (allowPrivate && privateRanges.includes(range)) return undefined;
  return `shop_url resolves to a ${range} address, which connectors may not call.`;
}
