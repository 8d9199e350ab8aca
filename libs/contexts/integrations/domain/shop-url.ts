import net from 'node:net';
import { BlockedReason, classifyAddress, isRefused } from '#platform/net/address-policy';
import type { HostResolver } from '#platform/net/host-resolver';

/**
 * The rule for a connector's shop URL (outbound requests to a third party): https to a public
 * host; plain http, localhost and private-network addresses only where the service allows them
 * (CONNECTOR_ALLOW_PRIVATE_TARGETS, for a shop on this machine or a test server). Cloud metadata
 * addresses are refused always. This checks the URL itself (and an IP literal host); a host
 * name is resolved and each of its addresses checked by the platform's HostResolver, at
 * registration and before each call (`shopTargetRefusal`). Answers why not, or
 * undefined.
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

/** Why a blocked address may not be called, in the words of a shop URL. */
export const blockedShopAddress = (reason: BlockedReason): string =>
  reason === 'metadata'
    ? 'shop_url resolves to a cloud metadata address.'
    : `shop_url resolves to a ${reason.replace(/_/g, '-')} address, which connectors may not call.`;

/** Why a resolved address may not be called (the platform's address policy), or undefined. */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  const reason = classifyAddress(address);
  return isRefused(reason, allowPrivate) ? blockedShopAddress(reason!) : undefined;
}

/** The shop host's name that does not resolve. */
export const unresolvedShopHost = (host: string): string => `shop_url host '${host}' does not resolve.`;

/**
 * The whole check of a shop URL: the URL (`shopUrlRefusal`), then its host name resolved and
 * every address checked by `hosts` (the platform's HostResolver, the same check as webhook
 * receiver URLs). Answers why not, or undefined.
 */
export async function shopTargetRefusal(
  raw: string,
  allowPrivate: boolean,
  hosts: Pick<HostResolver, 'check'>,
): Promise<string | undefined> {
  const refusal = shopUrlRefusal(raw, allowPrivate);
  if (refusal) return refusal;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return undefined;
  const checked = await hosts.check(host, allowPrivate);
  if ('unresolved' in checked) return unresolvedShopHost(host);
  if ('blocked' in checked) return blockedShopAddress(checked.blocked);
  return undefined;
}
