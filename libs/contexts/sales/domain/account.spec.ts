import { assertActive, mergeMetadata, normalizeCountry, normalizeCurrency } from './account';
import { SalesError } from './sales-error';

describe('account rules', () => {
  it('merges metadata like Stripe: adds and replaces keys, removes keys sent empty or null', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual({ a: '1', b: '3', c: '4' });
    expect(mergeMetadata({ a: '1', b: '2' }, { a: '', b: null })).toEqual({});
  });

  it('refuses non-string values, long values and too many keys, naming the param', () => {
    const paramOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as SalesError).param;
      }
      return undefined;
    };
    expect(paramOf(() => mergeMetadata({}, { n: 5 }))).toBe('metadata.n');
    expect(paramOf(() => mergeMetadata({}, { long: 'x'.repeat(501) }))).toBe('metadata.long');
    expect(paramOf(() => mergeMetadata({}, { ['k'.repeat(41)]: 'v' }))).toBe(`metadata.${'k'.repeat(41)}`);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(mergeMetadata({}, fifty)).toEqual(fifty);
    expect(paramOf(() => mergeMetadata(fifty, { extra: 'v' }))).toBe('metadata');
  });

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
