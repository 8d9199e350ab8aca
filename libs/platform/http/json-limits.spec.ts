import { exceedsDepth, firstUnstorableString, inexactNumbers, MAX_JSON_DEPTH } from './json-limits';

describe('JSON limits', () => {
  it('measures nesting without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(exceedsDepth(deep)).toBe(true);
    const nest = (levels: number) => {
      let value: unknown = 'leaf';
      for (let i = 0; i < levels; i++) value = { a: value };
      return value;
    };
    expect(exceedsDepth(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsDepth(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsDepth('text')).toBe(false);
  });

  it('finds the first NUL or lone surrogate with its dotted path, keys included', () => {
    expect(firstUnstorableString({ name: 'ok', items: [{ name: 'fine' }, { name: 'a\u0000b' }] })).toEqual({
      path: 'items[1].name',
      reason: expect.stringMatching(/NUL/),
    });
    expect(firstUnstorableString({ a: '\ud800', b: '\u0000' })?.path).toBe('a');
    expect(firstUnstorableString({ a: 'x\udc00' })?.reason).toMatch(/surrogate/);
    expect(firstUnstorableString({ meta: { 'k\u0000': 'v' } })).toEqual({
      path: 'meta.k\u0000',
      reason: expect.stringMatching(/key/),
    });
    expect(firstUnstorableString({ emoji: 'Caf\u00e9 \ud83d\ude00', n: 1, z: null })).toBeUndefined();
  });

  it('names the number literals that parsing rounds', () => {
    const text =
      '{"a":123456789012345.6789,"b":99999999999999.9999,"c":0.1,"d":"1234567890123456789","e":1.50000,"f":1e2}';
    expect([...inexactNumbers(text)].sort()).toEqual([100000000000000, 123456789012345.67].sort());
    expect(inexactNumbers('{"price": 12.5}').size).toBe(0);
    expect(inexactNumbers('{"a": 1234567890123456.0}').size).toBe(0);
    expect([...inexactNumbers('[12345678901234567]')]).toEqual([12345678901234568]);
  });
});
