import { randomFillSync } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 32-bit counter (12 bits in rand_a,
 * 20 in rand_b), then 42 random bits. The counter starts at a random value below 2^31 at each
 * new millisecond and counts up within it, so the ids of one process sort in creation order even
 * when many are made in the same millisecond; past 2^32 ids in one millisecond the timestamp moves
 * one ahead. Random bytes come from one CSPRNG buffer refilled when spent, instead of one
 * crypto call per id (a request that writes a movement makes about eight ids).
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** Two lowercase hex digits (as character codes) of each byte value. */
const HEX_CODES = Buffer.from(
  Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
  'latin1',
);
/** The 16 bytes of the id being made, and its text (dashes fixed in place). */
const bytes = Buffer.alloc(16);
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
/** Where each byte's two hex digits go in the text. */
const TEXT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

let lastMs = -1;
let counter = 0;

/** `n` fresh random bytes' offset in the pool (refilled when fewer than `n` are left). */
function take(n: number): number {
  if (poolAt + n > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const at = poolAt;
  poolAt += n;
  return at;
}

/** The id for `ms` (a clock reading) and the next counter value; exported for its unit test. */
export function uuidV7At(ms: number): string {
  if (ms > lastMs) {
    const at = take(4);
    // Below 2^31, so a millisecond has at least 2^31 ids before the counter wraps.
    counter = pool.readUInt32BE(at) >>> 1;
    lastMs = ms;
  } else {
    counter = (counter + 1) >>> 0;
    // The counter wrapped within one millisecond (or the clock went back): borrow the next one.
    if (counter === 0) lastMs += 1;
  }
  const t = lastMs;
  const r = take(6);
  bytes.writeUIntBE(t, 0, 6);
  bytes[6] = 0x70 | (counter >>> 28);
  bytes[7] = (counter >>> 20) & 0xff;
  bytes[8] = 0x80 | ((counter >>> 14) & 0x3f);
  bytes[9] = (counter >>> 6) & 0xff;
  bytes[10] = ((counter & 0x3f) << 2) | (pool[r] & 0x03);
  pool.copy(bytes, 11, r + 1, r + 6);
  for (let i = 0; i < 16; i++) {
    const b = bytes[i] * 2;
    const at = TEXT_AT[i];
    text[at] = HEX_CODES[b];
    text[at + 1] = HEX_CODES[b + 1];
  }
  return text.toString('latin1');
}

/** A new UUIDv7: time-ordered, so ordering by id is creation order. */
export const newId = (): string => uuidV7At(Date.now());

/**
 * The layout every id takes: 32 hex digits in groups of 8-4-4-4-12, either case. Ids are opaque to
 * clients, so any value of this layout is an id (a nil id, or one without RFC version and variant
 * digits, included): it names a record or none (404), it is never a malformed request.
 */
export const ID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && ID_PATTERN.test(value);

/** An id made by newId(): version digit 7 and the RFC 9562 variant. */
export const isUuidV7 = (value: unknown): value is string =>
  isUuid(value) && value[14] === '7' && '89abAB'.includes(value[19]);
