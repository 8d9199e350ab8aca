import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../crypto/secret-box';
import { openResponse, RESPONSE_SECRETS_PURPOSE, sealResponse } from './sealed-response';

describe('sealed idempotent responses', () => {
  const box = new SecretBox(`k1:${randomBytes(32).toString('base64')}`);

  it('takes the listed string fields out of the stored body, keeping field order', () => {
    const body = { id: 'a', secret: 'key_live_x', name: 'n', signing_secret: 'whsec_y' };
    const stored = sealResponse(body, ['secret', 'signing_secret'], box);
    expect(JSON.stringify(stored.body)).toBe('{"id":"a","secret":null,"name":"n","signing_secret":null}');
    expect(stored.sealed).toMatch(/^enc:v1:k1:/);
    expect(stored.sealed).not.toContain('key_live_x');
    expect(JSON.parse(box.open(stored.sealed!, RESPONSE_SECRETS_PURPOSE))).toEqual({
      secret: 'key_live_x',
      signing_secret: 'whsec_y',
    });
    // The body handed to the caller is not changed.
    expect(body.secret).toBe('key_live_x');
  });

  it('puts the sealed fields back in their places on replay', () => {
    const body = { id: 'a', secret: 'key_live_x', name: 'n' };
    const stored = sealResponse(body, ['secret'], box);
    const replayed = openResponse(JSON.parse(JSON.stringify(stored.body)), stored.sealed, box);
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(body));
  });

  it('stores bodies without a listed string field as they are', () => {
    for (const [body, fields] of [
      [{ id: 'a', secret: null }, ['secret']],
      [{ id: 'a' }, ['secret']],
      [{ id: 'a', secret: 's' }, []],
      [['secret'], ['secret']],
      [null, ['secret']],
    ] as [unknown, string[]][]) {
      const stored = sealResponse(body, fields, box);
      expect(stored).toEqual({ body, sealed: null });
      expect(openResponse(stored.body, stored.sealed, box)).toBe(body);
    }
  });

  it('refuses a sealed copy moved from another purpose', () => {
    const other = box.seal(JSON.stringify({ secret: 'x' }), 'webhook_endpoints.secret');
    expect(() => openResponse({ secret: null }, other, box)).toThrow();
  });
});
