import { checkUrlShape, classifyAddress, isRefused } from './target-policy';

describe('receiver target policy', () => {
  it('classifies loopback, private, link-local, metadata and public addresses', () => {
    expect(classifyAddress('127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::1')).toBe('loopback');
    expect(classifyAddress('10.0.0.8')).toBe('private');
    expect(classifyAddress('172.31.255.1')).toBe('private');
    expect(classifyAddress('172.32.0.1')).toBeUndefined();
    expect(classifyAddress('192.168.1.1')).toBe('private');
    expect(classifyAddress('fd12::1')).toBe('private');
    expect(classifyAddress('169.254.1.1')).toBe('link_local');
    expect(classifyAddress('fe80::1')).toBe('link_local');
    expect(classifyAddress('169.254.169.254')).toBe('metadata');
    expect(classifyAddress('fd00:ec2::254')).toBe('metadata');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('0.0.0.0')).toBe('unspecified');
    expect(classifyAddress('93.184.215.14')).toBeUndefined();
    expect(classifyAddress('2606:2800:220:1::1')).toBeUndefined();
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
  });
});
