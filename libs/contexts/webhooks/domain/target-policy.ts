/**
 * Checks the syntax and scheme of a receiver URL; returns a hint when it is refused. Its host's
 * addresses are judged by the platform's HostResolver (libs/platform/net).
 */
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
  // An IPv6 literal keeps its brackets in hostname, so it never reads as a name.
  const host = url.hostname;
  if ((host === 'localhost' || host.endsWith('.localhost')) && !allowPrivateTargets) {
    return { hint: 'url may not point to a loopback host.' };
  }
  return { url };
}
