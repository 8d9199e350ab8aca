import { createHash, createHmac, randomInt } from 'node:crypto';
import { Mode } from '../tenancy/request-context';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
/** The random part of a key issued with a checksum: 40 random characters, then 6 of checksum. */
export const CHECKSUMMED_LENGTH = RANDOM_LENGTH + CHECKSUM_LENGTH;
const KEY_PATTERN = /^key_(live|test)_ent_([a-z0-9]{1,32})_([0-9A-Za-z]{32,128})$/;

export interface ParsedKey {
  mode: Mode;
  entityCode: string;
  /**
   * True when the random part has the length of a key issued with a checksum (46): its last 6
   * characters must then be the checksum of the rest. Keys issued before checksums have 40.
   */
  checksummed: boolean;
}

/**
 * The checksum of a key's text before it: HMAC-SHA256 under the server's checksum secret, its
 * first 8 bytes as 6 base62 characters (about 35.7 bits). Without the secret, a guessed key has
 * one chance in 5.7e10 of carrying a right one.
 */
function checksumOf(body: string, secret: Buffer): string {
  let n = createHmac('sha256', secret).update(body).digest().readBigUInt64BE(0);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** `key_<mode>_ent_<entity code>_<40 random base62 characters><6 characters of checksum>`. */
export function generateKey(mode: Mode, entityCode: string, checksumSecret: Buffer): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const body = `key_${mode}_ent_${entityCode}_${random}`;
  return body + checksumOf(body, checksumSecret);
}

export function parseKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  return match
    ? { mode: match[1] as Mode, entityCode: match[2], checksummed: match[3].length === CHECKSUMMED_LENGTH }
    : null;
}

/**
 * Whether a key of the checksummed format carries the right checksum: no database read is
 * needed to refuse one that does not. Constant-time in the compared characters.
 */
export function hasValidChecksum(key: string, checksumSecret: Buffer): boolean {
  const body = key.slice(0, -CHECKSUM_LENGTH);
  const expected = checksumOf(body, checksumSecret);
  const given = key.slice(-CHECKSUM_LENGTH);
  let diff = 0;
  for (let i = 0; i < CHECKSUM_LENGTH; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

/** Keys carry over 230 bits of randomness, so one SHA-256 is a safe, fast lookup hash. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** What a list shows of a key: its prefix and last four characters. */
export const redactKey = (key: string): string => {
  const parsed = parseKey(key);
  const prefix = parsed ? `key_${parsed.mode}_ent_${parsed.entityCode}_` : 'key_';
  return `${prefix}...${key.slice(-4)}`;
};
