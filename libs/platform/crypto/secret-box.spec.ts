import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../config/app-config';
import { DEVELOPMENT_SECRETS_KEY, SecretBox, SecretsKeyError } from './secret-box';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('SecretBox', () => {
  const k1 = key('k1');
  const k2 = key('k2');

  it('seals with AES-256-GCM under the first key id and opens it again', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('whsec_abc', 'webhook_endpoints.secret');
    expect(sealed).toMatch(/^enc:v1:k1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc', 'webhook_endpoints.secret')).not.toBe(sealed);
    expect(box.open(sealed, 'webhook_endpoints.secret')).toBe('whsec_abc');
  });

  it('refuses a value sealed for another purpose, tampered with, or in plain text', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('whsec_abc', 'webhook_endpoints.secret');
    expect(() => box.open(sealed, 'other.column')).toThrow();
    // One bit of the ciphertext flipped (editing base64 text may only touch its unused bits).
    const head = sealed.slice(0, sealed.lastIndexOf(':') + 1);
    const bytes = Buffer.from(sealed.slice(head.length), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    const tampered = head + bytes.toString('base64url');
    expect(() => box.open(tampered, 'webhook_endpoints.secret')).toThrow();
    expect(() => box.open('whsec_abc', 'webhook_endpoints.secret')).toThrow(SecretsKeyError);
  });

  it('rotates: a new first key encrypts, the old one still opens, reseal moves values to the new key', () => {
    const old = new SecretBox(k1).seal('whsec_abc', 'p');
    const rotated = new SecretBox(`${k2},${k1}`);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.open(old, 'p')).toBe('whsec_abc');
    const moved = rotated.reseal(old, 'p');
    expect(SecretBox.keyIdOf(moved)).toBe('k2');
    expect(rotated.reseal(moved, 'p')).toBe(moved);
    expect(SecretBox.keyIdOf(rotated.reseal('whsec_plain', 'p'))).toBe('k2');
    expect(() => new SecretBox(k2).open(old, 'p')).toThrow(/k1/);
  });

  it('refuses malformed keys without echoing them', () => {
    for (const bad of [
      '',
      'nokey',
      'k1:c2hvcnQ=',
      `k 1:${randomBytes(32).toString('base64')}`,
      `${k1},${k1}`,
    ]) {
      expect(() => new SecretBox(bad)).toThrow(SecretsKeyError);
    }
  });
});

describe('SECRETS_KEY configuration', () => {
  it('is required when NODE_ENV=production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key('prod') }).secretsKey).toMatch(/^prod:/);
  });

  it('falls back to the public development key elsewhere, and refuses a malformed key', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).secretsKey).toBe(DEVELOPMENT_SECRETS_KEY);
    expect(() => loadConfig({ SECRETS_KEY: 'k1:short' })).toThrow(/SECRETS_KEY: key 'k1' is not 32 bytes/);
  });
});
