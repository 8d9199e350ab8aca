import { assertActive, normalizeCountry, normalizeCurrency } from './account';

describe('account rules', () => {
  it('allows changes to active accounts only, with a hint naming the status', () => {
    expect(() => assertActive({ id: 'a', status: 'active' }, 'updating')).not.toThrow();
    expect(() => assertActive({ id: 'a', status: 'deleted' }, 'updating')).toThrow(/status 'deleted'/);
    expect(() => assertActive({ id: 'a', status: 'deleted' }, 'updating')).toThrow(
      expect.objectContaining({ code: 'invalid_state', status: 409 }),
    );
  });

  it('normalizes currency and country codes to upper case', () => {
    expect(normalizeCurrency('eur')).toBe('EUR');
    expect(normalizeCountry('de')).toBe('DE');
  });
});
