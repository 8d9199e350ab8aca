import { normalizeTagColor, normalizeTagName, TAG_COLOR_PATTERN } from './tag';

describe('tag rules', () => {
  it('trims and collapses whitespace in names', () => {
    expect(normalizeTagName('  VIP   customer ')).toBe('VIP customer');
  });

  it('lower-cases colours and keeps null', () => {
    expect(normalizeTagColor('#FFAA00')).toBe('#ffaa00');
    expect(normalizeTagColor(null)).toBeNull();
    expect(normalizeTagColor(undefined)).toBeUndefined();
  });

  it('accepts only #RRGGBB colours', () => {
    expect(TAG_COLOR_PATTERN.test('#a1b2c3')).toBe(true);
    expect(TAG_COLOR_PATTERN.test('red')).toBe(false);
    expect(TAG_COLOR_PATTERN.test('#abc')).toBe(false);
  });
});
