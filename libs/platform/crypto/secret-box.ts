import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets stored encrypted (AES-256-GCM, node:crypto) with keys from SECRETS_KEY:
 * `<id>:<base64 of 32 bytes>[,<id>:<base64>...]`. The first key encrypts; every listed key
 * decrypts, so a key is rotated by putting a new one first, re-encrypting
 * (`npm run secrets:reencrypt`), then dropping the old one. A stored value reads
 * `enc:v1:<key id>:<base64url of iv(12) | tag(16) | ciphertext>`; the key id says which key
 * opens it. The purpose string is authenticated with it (a value cannot be moved to a column
 * of another purpose).
 */

const PREFIX = 'enc:v1:';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The key used when SECRETS_KEY is unset outside production: public, so never protective. */
export const DEVELOPMENT_SECRETS_KEY = `dev:${Buffer.alloc(32, 'development-only-not-a-secret').toString('base64')}`;

export class SecretsKeyError extends Error {}

/** Parses SECRETS_KEY; throws SecretsKeyError naming what is wrong (never the key). */
export function parseSecretsKey(value: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!KEY_ID.test(id))
      throw new SecretsKeyError('each key is <id>:<base64 of 32 bytes>, id of [A-Za-z0-9_-]');
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== 32) throw new SecretsKeyError(`key '${id}' is not 32 bytes of base64`);
    if (keys.has(id)) throw new SecretsKeyError(`key id '${id}' is listed twice`);
    keys.set(id, key);
  }
  if (keys.size === 0) throw new SecretsKeyError('no key given');
  return keys;
}

export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  /** The id of the key new values are encrypted with. */
  readonly currentKeyId: string;

  constructor(secretsKey: string) {
    this.keys = parseSecretsKey(secretsKey);
    this.currentKeyId = this.keys.keys().next().value as string;
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  /** The key id a sealed value was encrypted with. */
  static keyIdOf(value: string): string | undefined {
    if (!SecretBox.isSealed(value)) return undefined;
    return value.slice(PREFIX.length).split(':')[0];
  }

  seal(plaintext: string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    return `${PREFIX}${this.currentKeyId}:${sealed}`;
  }

  open(value: string, purpose: string): string {
    if (!SecretBox.isSealed(value)) throw new SecretsKeyError('the stored value is not encrypted');
    const [keyId, sealed] = value.slice(PREFIX.length).split(':');
    const key = this.keys.get(keyId);
    if (!key)
      throw new SecretsKeyError(
        `the value was encrypted with key '${keyId}', which SECRETS_KEY does not list`,
      );
    const bytes = Buffer.from(sealed ?? '', 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** The value encrypted with the current key (unchanged when it already is; plaintext is sealed). */
  reseal(value: string, purpose: string): string {
    if (SecretBox.keyIdOf(value) === this.currentKeyId) return value;
    return this.seal(SecretBox.isSealed(value) ? this.open(value, purpose) : value, purpose);
  }
}
