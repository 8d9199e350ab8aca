import { createHash, randomInt } from 'node:crypto';
import { Mode } from '../tenancy/request-context';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const KEY_PATTERN = /^key_(live|test)_ent_([a-z0-9]{1,32})_([0-9A-Za-z]{32,128})$/;

export interface ParsedKey {
  mode: Mode;
  entityCode: string;
}

/** `key_<mode>_ent_<entity code>_<40 base62 characters>`. */
export function generateKey(mode: Mode, entityCode: string): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return `key_${mode}_ent_${entityCode}_${random}`;
}

export function parseKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { mode: match[1] as Mode, entityCode: match[2] } : null;
}

/** Keys carry over 230 bits of randomness, so one SHA-256 is a safe, fast lookup hash. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** What a list shows of a key: its prefix and last four characters. */
export const redactKey = (key: string): string => {
  const parsed = parseKey(key);
  const prefix = parsed ? `key_${parsed.mode}_ent_${parsed.entityCode}_` : 'key_';
  return `${prefix}...${key.slice(-4)}`;
};
