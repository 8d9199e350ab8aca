import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { firstInvalidUtf8Byte } from './request-pipeline.middleware';

describe('firstInvalidUtf8Byte', () => {
  it('names no byte in valid UTF-8 and the first bad byte otherwise', () => {
    expect(firstInvalidUtf8Byte(Buffer.from('{"name":"café ✓ 😀"}', 'utf8'))).toBeUndefined();
    expect(firstInvalidUtf8Byte(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toBe(2);
    // A truncated 3-byte sequence, an overlong "/", a UTF-16 surrogate, a code point past U+10FFFF.
    expect(firstInvalidUtf8Byte(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidUtf8Byte(Buffer.from([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8Byte(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2);
    expect(firstInvalidUtf8Byte(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });

  it('agrees with the runtime: the prefix before the byte it names is UTF-8, the bytes from it are not', () => {
    const bytes = fc.uint8Array({ maxLength: 24 }).map((a) => Buffer.from(a));
    const mostlyText = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 4 }).map((t) => Buffer.from(t)),
          bytes,
        ),
        {
          maxLength: 4,
        },
      )
      .map((parts) => Buffer.concat(parts));
    fc.assert(
      fc.property(fc.oneof(bytes, mostlyText), (body) => {
        const at = firstInvalidUtf8Byte(body);
        if (at === undefined) return isUtf8(body);
        return (
          !isUtf8(body) &&
          isUtf8(body.subarray(0, at)) &&
          !isUtf8(body.subarray(0, at + 4 > body.length ? body.length : at + 4))
        );
      }),
      { numRuns: 2000 },
    );
  });
});
