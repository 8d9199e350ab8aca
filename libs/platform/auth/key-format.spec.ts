import {
  CHECKSUMMED_LENGTH,
  generateKey,
  hashKey,
  hasValidChecksum,
  parseKey,
  redactKey,
} from './key-format';

const secret = Buffer.alloc(32, 7);
const otherSecret = Buffer.alloc(32, 8);

describe('API key format', () => {
  it('generates key_<mode>_ent_<code>_<40 random base62><6 base62 of checksum>', () => {
    const key = generateKey('live', 'acme1', secret);
    expect(key).toMatch(/^key_live_ent_acme1_[0-9A-Za-z]{46}$/);
    expect(CHECKSUMMED_LENGTH).toBe(46);
    expect(generateKey('test', 'acme1', secret)).toMatch(/^key_test_ent_acme1_/);
    expect(generateKey('live', 'acme1', secret)).not.toBe(key);
  });

  it('parses mode, entity code and format, and refuses malformed keys', () => {
    expect(parseKey(generateKey('test', 'qa1', secret))).toEqual({
      mode: 'test',
      entityCode: 'qa1',
      checksummed: true,
    });
    // A key issued before checksums (40 random characters) still parses, as such.
    expect(parseKey('key_live_ent_qa1_' + 'a'.repeat(40))).toEqual({
      mode: 'live',
      entityCode: 'qa1',
      checksummed: false,
    });
    expect(parseKey('key_live_ent_qa1_short')).toBeNull();
    expect(parseKey('key_prod_ent_qa1_' + 'a'.repeat(40))).toBeNull();
    expect(parseKey('sk_live_' + 'a'.repeat(40))).toBeNull();
    expect(parseKey('key_live_ent_QA1_' + 'a'.repeat(40))).toBeNull();
  });

  it('verifies the checksum with the secret it was issued under, and nothing else', () => {
    const key = generateKey('live', 'qa1', secret);
    expect(hasValidChecksum(key, secret)).toBe(true);
    expect(hasValidChecksum(key, otherSecret)).toBe(false);
    // Any one character changed, in the random part, the checksum or the prefix, fails.
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
    const failures = [key.length - 1, key.length - 6, key.length - 7, key.length - 46].map((at) =>
      hasValidChecksum(flip(key, at), secret),
    );
    expect(failures).toEqual([false, false, false, false]);
    expect(hasValidChecksum(key.replace('_qa1_', '_qa2_'), secret)).toBe(false);
    expect(hasValidChecksum(key.replace('key_live_', 'key_test_'), secret)).toBe(false);
  });

  it('hashes with SHA-256 hex and redacts to the last four characters', () => {
    const key = 'key_live_ent_qa1_' + 'A'.repeat(36) + 'wxyz';
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).toBe(hashKey(key));
    expect(redactKey(key)).toBe('key_live_ent_qa1_...wxyz');
  });
});
