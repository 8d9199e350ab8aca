import fc from 'fast-check';
import { isIP } from 'node:net';
import { IP_RANGE_PATTERN, IpAllowlist, normalizeAddress, parseAllowlistEntry } from './ip-allowlist';

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

  it('describes its entries with a pattern whose every match is an address or range it reads', () => {
    fc.assert(
      fc.property(fc.stringMatching(IP_RANGE_PATTERN), (entry) => {
        expect(parseAllowlistEntry(entry)).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
    const taken = [
      '203.0.113.0/24',
      '198.51.100.7',
      '0.0.0.0/0',
      '2001:db8::/32',
      '::',
      '::1',
      '::/0',
      'fe80::1/64',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      '::2:3:4:5:6:7:8',
      '1::8',
      'ABCD:ef01::/128',
    ];
    for (const entry of taken) {
      expect([entry, IP_RANGE_PATTERN.test(entry)]).toEqual([entry, true]);
      expect(isIP(entry.split('/')[0])).not.toBe(0);
    }
    const refused = [
      '203.0.113.0/33',
      '01.2.3.4',
      '256.1.1.1',
      '1.2.3',
      '1:2:3:4:5:6:7:8:9',
      '::1:2:3:4:5:6:7:8',
      '1::2::3',
      '2001:db8::/129',
      '10.0.0.0/8/1',
      ' 10.0.0.1',
      'example.com',
      '',
    ];
    for (const entry of refused) expect([entry, IP_RANGE_PATTERN.test(entry)]).toEqual([entry, false]);
  });
});
