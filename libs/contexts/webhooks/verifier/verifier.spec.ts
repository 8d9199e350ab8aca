import { createHmac } from 'node:crypto';
import {
  computeSignature,
  constructEvent,
  signatureHeader,
  verifySignature,
  WebhookSignatureError,
} from './index';

const secret = 'whsec_0123456789abcdef';
const body = '{"id":"evt_1","object":"event"}';
const now = 1_800_000_000;

describe('webhook signature verifier', () => {
  it('signs HMAC-SHA256 of "t.body" keyed with the secret as shown', () => {
    expect(computeSignature(secret, now, body)).toBe(
      createHmac('sha256', secret).update(`${now}.${body}`).digest('hex'),
    );
    expect(signatureHeader(secret, body, now)).toBe(`t=${now},v1=${computeSignature(secret, now, body)}`);
  });

  it('accepts a valid signature within 300 s, and any of several v1 values', () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature({ payload: body, header, secret, now: now + 300 })).toEqual({
      valid: true,
      timestamp: now,
    });
    expect(verifySignature({ payload: Buffer.from(body), header, secret, now })).toEqual({
      valid: true,
      timestamp: now,
    });
    const two = `t=${now},v1=${'0'.repeat(64)},v1=${computeSignature(secret, now, body)}`;
    expect(verifySignature({ payload: body, header: two, secret, now }).valid).toBe(true);
  });

  it('names each failure', () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature({ payload: body, header: undefined, secret, now })).toEqual({
      valid: false,
      reason: 'missing_header',
    });
    expect(verifySignature({ payload: body, header: '', secret, now })).toEqual({
      valid: false,
      reason: 'missing_header',
    });
    for (const bad of ['garbage', `t=${now}`, 'v1=abc', `t=abc,v1=${'a'.repeat(64)}`, `t=${now},v1=xyz`]) {
      expect(verifySignature({ payload: body, header: bad, secret, now })).toEqual({
        valid: false,
        reason: 'malformed_header',
      });
    }
    expect(verifySignature({ payload: body, header, secret, now: now + 301 })).toEqual({
      valid: false,
      reason: 'timestamp_too_old',
    });
    expect(verifySignature({ payload: body, header, secret: 'whsec_other', now })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    expect(verifySignature({ payload: body.replace('1', '2'), header, secret, now })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    // The prefix is part of the key.
    expect(verifySignature({ payload: body, header, secret: secret.slice('whsec_'.length), now })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
  });

  it('reads a header with spaces around its parts, keys and values', () => {
    const signature = computeSignature(secret, now, body);
    for (const header of [
      `t=${now}, v1=${signature}`,
      `t= ${now} ,v1= ${signature} `,
      ` t =${now},v1=${signature}`,
    ]) {
      expect(verifySignature({ payload: body, header, secret, now })).toEqual({
        valid: true,
        timestamp: now,
      });
    }
  });

  it('refuses a header with a part that is not key=value, even next to a valid signature', () => {
    const valid = signatureHeader(secret, body, now);
    for (const header of [`${valid},extra`, `=x,${valid}`, `${valid},=${now}`]) {
      expect(verifySignature({ payload: body, header, secret, now })).toEqual({
        valid: false,
        reason: 'malformed_header',
      });
    }
  });

  it('ignores parts of other schemes and reads hex in either case', () => {
    const signature = computeSignature(secret, now, body);
    const withOthers = `t=${now},v0=${'f'.repeat(64)},v1=${signature},v2=not-ours`;
    expect(verifySignature({ payload: body, header: withOthers, secret, now })).toEqual({
      valid: true,
      timestamp: now,
    });
    const upper = `t=${now},v1=${signature.toUpperCase()}`;
    expect(verifySignature({ payload: body, header: upper, secret, now })).toEqual({
      valid: true,
      timestamp: now,
    });
  });

  it('refuses a v1 value that is not exactly 64 hex digits, even when it starts or ends with the signature', () => {
    const signature = computeSignature(secret, now, body);
    for (const value of [
      `${signature}00`,
      `${signature}zz`,
      `zz${signature}`,
      signature.slice(2),
      `${signature} x`,
    ]) {
      expect(verifySignature({ payload: body, header: `t=${now},v1=${value}`, secret, now })).toEqual({
        valid: false,
        reason: 'malformed_header',
      });
    }
  });

  it('treats a header of only spaces as missing', () => {
    expect(verifySignature({ payload: body, header: '   ', secret, now })).toEqual({
      valid: false,
      reason: 'missing_header',
    });
    expect(
      verifySignature({ payload: body, header: [' ', signatureHeader(secret, body, now)], secret, now }),
    ).toEqual({
      valid: false,
      reason: 'missing_header',
    });
  });

  it('refuses a timestamp that is not only digits, whatever was signed', () => {
    // Signatures over the raw value and over what a lenient parser would make of it (NaN).
    const hmac = (signed: string) => createHmac('sha256', secret).update(`${signed}.${body}`).digest('hex');
    for (const t of [`x${now}`, `${now}x`, `${now}.5`, `-${now}`, `1${now}00`]) {
      const header = `t=${t},v1=${hmac(t)},v1=${hmac('NaN')},v1=${hmac(String(Number(t)))}`;
      expect(verifySignature({ payload: body, header, secret, now })).toEqual({
        valid: false,
        reason: 'malformed_header',
      });
    }
  });

  it('refuses a signature dated more than the tolerance in the future as in the past', () => {
    const future = signatureHeader(secret, body, now + 301);
    expect(verifySignature({ payload: body, header: future, secret, now })).toEqual({
      valid: false,
      reason: 'timestamp_too_old',
    });
    const farFuture = signatureHeader(secret, body, now + 86_400 * 365);
    expect(verifySignature({ payload: body, header: farFuture, secret, now }).valid).toBe(false);
    // Within the tolerance either way: a receiver's clock may run behind the sender's.
    expect(
      verifySignature({ payload: body, header: signatureHeader(secret, body, now + 300), secret, now }),
    ).toEqual({ valid: true, timestamp: now + 300 });
    expect(
      verifySignature({
        payload: body,
        header: signatureHeader(secret, body, now - 10),
        secret,
        now,
        toleranceSeconds: 5,
      }),
    ).toEqual({ valid: false, reason: 'timestamp_too_old' });
  });

  it('constructEvent parses bytes (a Uint8Array) as it parses a string', () => {
    const header = signatureHeader(secret, body, now);
    const bytes = new TextEncoder().encode(body);
    expect(verifySignature({ payload: bytes, header, secret, now }).valid).toBe(true);
    expect(constructEvent(bytes, signatureHeader(secret, bytes), secret)).toEqual({
      id: 'evt_1',
      object: 'event',
    });
  });

  it('constructEvent parses a verified payload and throws with the reason otherwise', () => {
    const header = signatureHeader(secret, body);
    expect(constructEvent(body, header, secret)).toEqual({ id: 'evt_1', object: 'event' });
    expect(() => constructEvent(body, 't=1,v1=' + 'a'.repeat(64), secret)).toThrow(WebhookSignatureError);
  });
});
