import { DomainError } from '../errors/domain-error';
import { mergeMetadata } from './metadata';

describe('metadata updates', () => {
  it('merges metadata like Stripe: adds and replaces keys, removes keys sent empty or null', () => {
    expect(mergeMetadata({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual({ a: '1', b: '3', c: '4' });
    expect(mergeMetadata({ a: '1', b: '2' }, { a: '', b: null })).toEqual({});
  });

  it('refuses non-string values, long values and too many keys, naming the param', () => {
    const paramOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as DomainError).param;
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
});
