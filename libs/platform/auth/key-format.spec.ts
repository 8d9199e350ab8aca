import { generateKey, hashKey, parseKey, redactKey } from './key-format';

describe('API key format', () => {
  it('generates key_<mode>_ent_<code>_<40 base62>', () => {
    const key = generateKey('live', 'acme1');
    expect(key).toMatch(/^key_live_ent_acme1_[0-9A-Za-z]{40}$/);
    expect(generateKey('test', 'acme1')).toMatch(/^key_test_ent_acme1_/);
    expect(generateKey('live', 'acme1')).not.toBe(key);
  });

  it('parses mode and entity code, and refuses malformed keys', () => {
    expect(parseKey(generateKey('test', 'qa1'))).toEqual({ mode: 'test', entityCode: 'qa1' });
    expect(parseKey('key_live_ent_qa1_short')).toBeNull();
    expect(parseKey('key_prod_ent_qa1_' + 'a'.repeat(40))).toBeNull();
    expect(parseKey('sk_live_' + 'a'.repeat(40))).toBeNull();
    expect(parseKey('key_live_ent_QA1_' + 'a'.repeat(40))).toBeNull();
  });

  it('hashes with SHA-256 hex and redacts to the last four characters', () => {
    const key = 'key_live_ent_qa1_' + 'A'.repeat(36) + 'wxyz';
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).toBe(hashKey(key));
    expect(redactKey(key)).toBe('key_live_ent_qa1_...wxyz');
  });
});
