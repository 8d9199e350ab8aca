import net from 'node:net';

/** Why an address may not receive webhooks. */
export type BlockedReason = 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified';

const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);
const METADATA_V6 = new Set(['fd00:ec2::254']);

const v4ToInt = (ip: string) => ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
const inV4 = (ip: string, base: string, bits: number) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (v4ToInt(ip) & mask) === (v4ToInt(base) & mask);
};

function expandV6(ip: string): number[] {
  let address = ip.toLowerCase().split('%')[0];
  const embedded = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (embedded) {
    const n = v4ToInt(embedded[1]);
    address =
      address.slice(0, -embedded[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - headParts.length - tailParts.length).fill('0');
  return [...headParts, ...fill, ...tailParts].map((h) => parseInt(h, 16));
}

function classifyV4(ip: string): BlockedReason | undefined {
  if (METADATA_V4.has(ip)) return 'metadata';
  if (inV4(ip, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(ip, '127.0.0.0', 8)) return 'loopback';
  if (inV4(ip, '169.254.0.0', 16)) return 'link_local';
  if (
    inV4(ip, '10.0.0.0', 8) ||
    inV4(ip, '172.16.0.0', 12) ||
    inV4(ip, '192.168.0.0', 16) ||
    inV4(ip, '100.64.0.0', 10)
  ) {
    return 'private';
  }
  return undefined;
}

/** Classifies an IP address literal; undefined means a public address. */
export function classifyAddress(ip: string): BlockedReason | undefined {
  if (net.isIPv4(ip)) return classifyV4(ip);
  if (!net.isIPv6(ip)) return undefined;
  const words = expandV6(ip);
  if (METADATA_V6.has(ip.toLowerCase())) return 'metadata';
  if (words.every((w) => w === 0)) return 'unspecified';
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses are judged as the IPv4 address.
  if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0)) {
    const v4 = `${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`;
    return classifyV4(v4);
  }
  if ((words[0] & 0xffc0) === 0xfe80) return 'link_local';
  if ((words[0] & 0xfe00) === 0xfc00) return 'private';
  return undefined;
}

/** Whether `reason` is refused under the current setting: metadata addresses are refused even when private targets are allowed. */
export const isRefused = (reason: BlockedReason | undefined, allowPrivateTargets: boolean): boolean =>
  reason !== undefined && (reason === 'metadata' || !allowPrivateTargets);

/** Checks the syntax and scheme of a receiver URL; returns a hint when it is refused. */
export function checkUrlShape(raw: string, allowPrivateTargets: boolean): { url: URL } | { hint: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { hint: 'url must be an absolute URL such as https://example.com/webhooks.' };
  }
  const allowed = allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) return { hint: 'url must use https://.' };
  if (url.username || url.password) return { hint: 'url must not carry credentials.' };
  if (url.hostname === '') return { hint: 'url needs a host.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host) && (host === 'localhost' || host.endsWith('.localhost')) && !allowPrivateTargets) {
    return { hint: 'url may not point to a loopback host.' };
  }
  return { url };
}
