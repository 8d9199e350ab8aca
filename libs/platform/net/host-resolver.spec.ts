import { HostResolver, ResolvedAddress } from './host-resolver';

/** A resolver whose names resolve from a table (no DNS). */
class TableResolver extends HostResolver {
  constructor(private readonly table: Record<string, string[]>) {
    super();
  }
  override lookup(host: string): Promise<ResolvedAddress[]> {
    return Promise.resolve(
      (this.table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }
}

describe('HostResolver.check', () => {
  const hosts = new TableResolver({
    'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'loopback.test': ['127.0.0.1'],
    'mixed.test': ['93.184.215.14', '10.0.0.7'],
    'metadata.test': ['10.0.0.7', '169.254.169.254'],
  });

  it('answers every address of a host whose addresses are all public', async () => {
    expect(await hosts.check('public.test', false)).toEqual({
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    });
  });

  it('refuses a host when one of its addresses is refused, giving the strictest reason', async () => {
    expect(await hosts.check('loopback.test', false)).toEqual({ blocked: 'loopback', address: '127.0.0.1' });
    expect(await hosts.check('mixed.test', false)).toEqual({ blocked: 'private', address: '10.0.0.7' });
    // A metadata address is refused even where private targets are allowed.
    expect(await hosts.check('metadata.test', true)).toEqual({
      blocked: 'metadata',
      address: '169.254.169.254',
    });
  });

  it('allows private-network addresses only where the caller allows them', async () => {
    expect(await hosts.check('mixed.test', true)).toEqual({
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
  });

  it('takes an IP literal as it is and refuses a name that does not resolve', async () => {
    expect(await hosts.check('[::1]', false)).toEqual({ blocked: 'loopback', address: '::1' });
    expect(await hosts.check('93.184.215.14', false)).toEqual({
      addresses: [{ address: '93.184.215.14', family: 4 }],
    });
    expect(await hosts.check('nowhere.test', false)).toEqual({ unresolved: true });
  });
});
