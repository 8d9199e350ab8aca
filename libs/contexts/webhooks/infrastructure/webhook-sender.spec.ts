import { truncateUtf8 } from './webhook-sender';

describe('response body truncation', () => {
  it('keeps the first 500 bytes at a character boundary', () => {
    expect(truncateUtf8(Buffer.from('x'.repeat(2048)))).toBe('x'.repeat(500));
    const text = 'x'.repeat(499) + 'é' + 'y';
    expect(Buffer.byteLength(truncateUtf8(Buffer.from(text)))).toBe(499);
    expect(truncateUtf8(Buffer.from('short'))).toBe('short');
    expect(truncateUtf8(Buffer.from('a\u0000b'))).toBe('ab');
  });
});
