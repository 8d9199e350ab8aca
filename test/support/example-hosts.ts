import { HostResolver } from '#platform/net/host-resolver';
import type { TestApp } from './test-app';

/**
 * The documentation hosts generated URLs name (example.com, example.org, example.net and their
 * subdomains, a shop under myshopify.com) resolve, in this app, to the loopback address: the test
 * machine has no DNS for them, and the test app allows private targets, so a receiver or shop URL
 * a generator builds from the description's examples is registered, and a call to it fails at
 * once (nothing listens on the default ports). Any other host is resolved as usual.
 */
export function resolveExampleHosts(app: TestApp): void {
  const resolver = app.get(HostResolver);
  const system = resolver.lookup.bind(resolver);
  jest
    .spyOn(resolver, 'lookup')
    .mockImplementation(async (host: string) =>
      /(^|\.)(example\.(com|org|net)|myshopify\.com)$/i.test(host)
        ? [{ address: '127.0.0.1', family: 4 as const }]
        : system(host),
    );
}
