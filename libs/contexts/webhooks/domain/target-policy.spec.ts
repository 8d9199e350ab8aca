import { classifyAddress, isRefused } from '#platform/net/address-policy';
import { checkUrlShape } from './target-policy';

describe('receiver target policy', () => {
  // Loopback, private, link-local, metadata and unspecified addresses (IPv4-mapped ones too);
  // public addresses have no class.
  it.each<[string, string | undefined]>([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.8', 'private'],
    ['172.31.255.1', 'private'],
    ['172.32.0.1', undefined],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['93.184.215.14', undefined],
    ['2606:2800:220:1::1', undefined],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('refuses metadata even when private targets are allowed', () => {
    expect(isRefused('loopback', true)).toBe(false);
    expect(isRefused('loopback', false)).toBe(true);
    expect(isRefused('metadata', true)).toBe(true);
    expect(isRefused(undefined, false)).toBe(false);
  });

  it('requires https unless private targets are allowed', () => {
    expect('url' in checkUrlShape('https://example.com/x', false)).toBe(true);
    expect(checkUrlShape('http://example.com/x', false)).toEqual({ hint: expect.stringContaining('https') });
    expect('url' in checkUrlShape('http://127.0.0.1:8080/x', true)).toBe(true);
    expect(checkUrlShape('https://user:pw@example.com/', false)).toEqual({
      hint: expect.stringContaining('credentials'),
    });
    expect(checkUrlShape('https://localhost/x', false)).toEqual({
      hint: expect.stringContaining('loopback'),
    });
    expect(checkUrlShape('nope', true)).toEqual({ hint: expect.stringContaining('absolute') });
    expect(checkUrlShape('https://user@example.com/', false)).toEqual({
      hint: expect.stringContaining('credentials'),
    });
    expect(checkUrlShape('https://:pw@example.com/', false)).toEqual({
      hint: expect.stringContaining('credentials'),
    });
    for (const name of ['https://localhost:8443/x', 'https://api.localhost/x', 'https://a.b.localhost/x']) {
      expect(checkUrlShape(name, false)).toEqual({ hint: expect.stringContaining('loopback') });
      expect('url' in checkUrlShape(name, true)).toBe(true);
    }
    // Names that only look like it, and addresses (judged later by their class, not here).
    for (const other of [
      'https://localhost.example.com/x',
      'https://mylocalhost/x',
      'https://[::1]/x',
      'https://127.0.0.1/x',
    ]) {
      expect('url' in checkUrlShape(other, false)).toBe(true);
    }
  });
});

describe('receiver target policy: the special-purpose ranges and their IPv6 embeddings', () => {
  it.each([
    // Addresses a naive check would accept: each is refused.
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.254', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['ff02::1', 'multicast'],
    // Every range, IPv4.
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    // IPv6.
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['2001:db8::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'reserved'],
    // Embeddings of blocked IPv4 addresses.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:0:10.0.0.1', 'private'], // IPv4-translated
    ['::10.0.0.1', 'private'], // IPv4-compatible
    ['64:ff9b::a00:1', 'private'], // NAT64 of 10.0.0.1
    ['64:ff9b::a9fe:a9fe', 'metadata'], // NAT64 of 169.254.169.254
    ['64:ff9b::c612:1', 'benchmarking'], // NAT64 of 198.18.0.1
    ['64:ff9b::e000:1', 'multicast'], // NAT64 of 224.0.0.1
    ['64:ff9b:1::1', 'private'], // local-use NAT64 prefix
    ['2002:a9fe:a9fe::1', 'metadata'], // 6to4 of 169.254.169.254
    ['2002:c0a8:101::', 'private'], // 6to4 of 192.168.1.1
    ['2002:ffff:ffff::', 'broadcast'], // 6to4 of 255.255.255.255
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // Teredo, client 127.0.0.1 (obfuscated)
    ['2001:0:7f00:1::f7f7:f7f7', 'loopback'], // Teredo, server 127.0.0.1, client 8.8.8.8
    ['[::ffff:127.0.0.1]', 'loopback'], // bracketed URL form
  ])('%s is %s', (address, reason) => {
    expect(classifyAddress(address)).toBe(reason);
    expect(isRefused(classifyAddress(address), false)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:2800:220:1::1',
    '::ffff:93.184.215.14',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::1', // 6to4 of 8.8.8.8
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, public server and client 8.8.8.8
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('refuses the always-refused reasons even when private targets are allowed', () => {
    for (const reason of ['metadata', 'multicast', 'broadcast', 'unspecified', 'reserved'] as const) {
      expect(isRefused(reason, true)).toBe(true);
    }
    for (const reason of [
      'loopback',
      'private',
      'link_local',
      'carrier_grade_nat',
      'benchmarking',
    ] as const) {
      expect(isRefused(reason, true)).toBe(false);
      expect(isRefused(reason, false)).toBe(true);
    }
  });
});
