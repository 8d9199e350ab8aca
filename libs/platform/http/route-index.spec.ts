import express from 'express';
import { indexRouteLayers, literalPrefix } from './route-index';

type Stack = Parameters<typeof indexRouteLayers>[0];

const PATHS = [
  '/v1/tags',
  '/v1/tags/:id',
  '/v1/tags/:id/restore',
  '/v1/products/:product_id/variants/:id',
  '/docs/',
  '/v1/files{/:name}',
  '/v1/*rest',
];

const REQUESTS = [
  '/v1/tags',
  '/v1/tags/',
  '/V1/TAGS',
  '/v1/Tags/abc',
  '/v1/tags/abc/restore',
  '/v1/tags/a%20b',
  '/v1/tags/%E0%A4%A',
  '/v1/tag',
  '/v1/products/p1/variants/v1',
  '/v1/products/p1/variants',
  '/docs',
  '/docs/',
  '/v1/files',
  '/v1/files/x',
  '/v2/tags',
  '/',
];

function stackOf(): Stack {
  const app = express();
  for (const path of PATHS) app.get(path, () => undefined);
  return (app as unknown as { router: { stack: Stack } }).router.stack;
}

/** What each layer answers for a path: its match, or the error it throws. */
function outcomes(stack: Stack, path: string): unknown[] {
  return stack.map((layer) => {
    try {
      return JSON.stringify(layer.match(path));
    } catch (error) {
      return `throws ${(error as Error).name}`;
    }
  });
}

describe('route layer index', () => {
  it('takes the literal head of a route path, without trailing slashes', () => {
    expect(literalPrefix('/v1/tags/:id')).toBe('/v1/tags');
    expect(literalPrefix('/v1/tags')).toBe('/v1/tags');
    expect(literalPrefix('/docs/')).toBe('/docs');
    expect(literalPrefix('/v1/files{/:name}')).toBe('/v1/files');
    expect(literalPrefix('/v1/*rest')).toBe('/v1');
  });

  it('leaves every layer matching exactly as Express does', () => {
    const plain = stackOf();
    const indexed = stackOf();
    expect(indexRouteLayers(indexed)).toBe(PATHS.length);
    for (const path of REQUESTS)
      expect([path, outcomes(indexed, path)]).toEqual([path, outcomes(plain, path)]);
  });

  it('compares exactly under case-sensitive routing', () => {
    const indexed = stackOf();
    indexRouteLayers(indexed, true);
    expect(indexed[0].match('/V1/TAGS')).toBe(false);
    expect(indexed[0].match('/v1/tags')).toBeTruthy();
  });
});
