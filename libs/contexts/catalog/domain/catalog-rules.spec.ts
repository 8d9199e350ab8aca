import { assertCanSync } from './channel-listing';
import { CatalogError } from './catalog-error';
import { initialMetadata, mergeMetadata, metadataProblem } from '#platform/domain/metadata';
import Decimal from 'decimal.js';
import { changedDemandAverages, productTransition, SKU_PATTERN } from './product';
import { assertDepth, assertNoCycle } from './product-category';

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error instanceof CatalogError ? error.code : 'other';
  }
  return undefined;
};

describe('product rules', () => {
  it.each([
    ['active', 'edit', 'active'],
    ['active', 'archive', 'archived'],
    ['archived', 'restore', 'active'],
  ] as const)('moves %s --%s--> %s', (status, action, next) => {
    expect(productTransition(action, { id: 'p', status })).toBe(next);
  });

  it.each([
    ['active', 'restore', "Product 'p' is active; only archived products can be restored."],
    [
      'archived',
      'edit',
      "Product 'p' is archived; restore it (POST /v1/products/p/restore) before changing it.",
    ],
    ['archived', 'archive', "Product 'p' is already archived; only active products can be deleted."],
  ] as const)('refuses %s --%s--> with 409 invalid_state', (status, action, message) => {
    expect(() => productTransition(action, { id: 'p', status })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message }),
    );
    expect(codeOf(() => productTransition(action, { id: 'p', status }))).toBe('invalid_state');
  });

  it('accepts usual SKUs and refuses blanks and spaces', () => {
    for (const sku of ['WID-001', 'a', 'BOX/12', 'X.1_2#3+']) expect(SKU_PATTERN.test(sku)).toBe(true);
    for (const sku of ['', ' A', 'A B', '-A', 'x'.repeat(65)]) expect(SKU_PATTERN.test(sku)).toBe(false);
  });
});

describe('changed demand averages', () => {
  const product = (id: string, avg: string) => ({ id, demandAvgPerDay: new Decimal(avg) });

  it('keeps the products whose average differs, compared as decimals, in the order given', () => {
    const a = product('a', '0.5000');
    const b = product('b', '0');
    const c = product('c', '1.2345');
    const averages = new Map([
      ['c', new Decimal('1.2346')],
      ['a', new Decimal('0.5')],
      ['b', new Decimal('0.0180')],
    ]);
    const changes = changedDemandAverages([a, b, c], averages);
    expect(changes.map((ch) => [ch.product, ch.next.toFixed(4)])).toEqual([
      [b, '0.0180'],
      [c, '1.2346'],
    ]);
  });

  it('leaves a product without a computed average, and answers nothing when nothing changed', () => {
    expect(changedDemandAverages([product('a', '2')], new Map())).toEqual([]);
    expect(changedDemandAverages([product('a', '2')], new Map([['a', new Decimal('2.0000')]]))).toEqual([]);
    expect(changedDemandAverages([], new Map([['a', new Decimal(1)]]))).toEqual([]);
  });
});

describe('channel listing sync rules', () => {
  const listing = { id: 'l', channel: 'storefront' as const, status: 'active' as const };

  it('answers connector_not_supported for marketplaces whatever their state', () => {
    expect(codeOf(() => assertCanSync({ ...listing, channel: 'marketplace1' }, 'active'))).toBe(
      'connector_not_supported',
    );
    expect(
      codeOf(() => assertCanSync({ ...listing, channel: 'marketplace2', status: 'inactive' }, 'archived')),
    ).toBe('connector_not_supported');
  });

  it('syncs active storefront listings of active products only', () => {
    expect(codeOf(() => assertCanSync(listing, 'active'))).toBeUndefined();
    expect(codeOf(() => assertCanSync({ ...listing, status: 'inactive' }, 'active'))).toBe('invalid_state');
    expect(codeOf(() => assertCanSync(listing, 'archived'))).toBe('invalid_state');
  });
});

describe('category tree rules', () => {
  it('refuses a category as its own parent or ancestor', () => {
    expect(codeOf(() => assertNoCycle('a', 'a', []))).toBe('parameter_invalid');
    expect(codeOf(() => assertNoCycle('a', 'c', ['b', 'a']))).toBe('parameter_invalid');
    expect(codeOf(() => assertNoCycle('a', 'c', ['b']))).toBeUndefined();
  });

  it('limits the depth to ten levels', () => {
    expect(codeOf(() => assertDepth(Array.from({ length: 7 }, (_, i) => String(i))))).toBeUndefined();
    expect(codeOf(() => assertDepth(Array.from({ length: 9 }, (_, i) => String(i))))).toBe(
      'parameter_invalid',
    );
  });
});

describe('metadata', () => {
  it('merges updates and removes keys set to "" or null', () => {
    expect(mergeMetadata({ a: '1', b: '2', c: '3' }, { a: 'x', b: '', c: null, d: '4' })).toEqual({
      a: 'x',
      d: '4',
    });
    expect(initialMetadata({ a: '1', b: null })).toEqual({ a: '1' });
    expect(initialMetadata(undefined)).toEqual({});
  });

  it('names what is wrong with a metadata object', () => {
    expect(metadataProblem({ a: '1', b: null })).toBeUndefined();
    expect(metadataProblem([])).toMatch(/object/);
    expect(metadataProblem({ a: 1 })).toMatch(/string/);
    expect(metadataProblem({ ['k'.repeat(41)]: 'v' })).toMatch(/keys/);
    expect(metadataProblem({ a: 'v'.repeat(501) })).toMatch(/500/);
    expect(metadataProblem(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])))).toMatch(
      /50/,
    );
  });
});
