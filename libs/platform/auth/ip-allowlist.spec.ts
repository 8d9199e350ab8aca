import { IpAllowlist, normalizeAddress, parseAllowlistEntry } from './ip-allowlist';

describe('IP allowlist', () => {
  it('parses addresses and CIDR ranges of both families', () => {
    expect(parseAllowlistEntry('203.0.113.0/24')).toEqual({
      address: '203.0.113.0',
      prefix: 24,
      family: 'ipv4',
    });
    expect(parseAllowlistEntry('198.51.100.7')).toEqual({
      address: '198.51.100.7',
      prefix: 32,
      family: 'ipv4',
    });
    expect(parseAllowlistEntry('2001:db8::/32')).toEqual({
      address: '2001:db8::',
      prefix: 32,
      family: 'ipv6',
    });
    for (const bad of ['203.0.113.0/33', '2001:db8::/129', 'example.com', '10.0.0.0/8/1', '1.2.3.4/x', '']) {
      expect(parseAllowlistEntry(bad)).toBeNull();
    }
  });

  it('matches IPv4 and IPv6 ranges, and IPv4 seen through an IPv6 socket', () => {
    const list = new IpAllowlist(['203.0.113.0/24', '2001:db8::/32']);
    expect(list.allows('203.0.113.200')).toBe(true);
    expect(list.allows('::ffff:203.0.113.9')).toBe(true);
    expect(list.allows('203.0.114.1')).toBe(false);
    expect(list.allows('2001:db8:1::5')).toBe(true);
    expect(list.allows('2001:db9::1')).toBe(false);
    expect(list.allows(undefined)).toBe(false);
    expect(list.allows('not an address')).toBe(false);
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });
});
