import { assertKitParent, assertNoCycle } from './kit-components';

describe('kit components', () => {
  const bom: Record<string, string[]> = { kitA: ['c1', 'kitB'], kitB: ['c2'], c1: [], c2: [] };
  const children = (id: string) => bom[id] ?? [];

  it('accepts only kits as parents', () => {
    expect(() => assertKitParent({ id: 'p', type: 'standard' })).toThrow(/only products of type kit/);
    expect(() => assertKitParent({ id: 'p', type: 'kit' })).not.toThrow();
  });

  it('refuses a kit as its own component and a kit that contains the parent', () => {
    expect(() => assertNoCycle('kitA', 'kitA', children)).toThrow(/own component/);
    expect(() => assertNoCycle('kitB', 'kitA', children)).toThrow(/cycle/);
    expect(() => assertNoCycle('kitA', 'c2', children)).not.toThrow();
  });

  it('reads each product of the tree once, so shared and looping sub-kits end the walk', () => {
    // kitX holds kitY and kitZ, both hold kitW; kitW and kitV hold each other (a loop below the parent).
    const tree: Record<string, string[]> = {
      kitX: ['kitY', 'kitZ'],
      kitY: ['kitW'],
      kitZ: ['kitW'],
      kitW: ['kitV', 'c'],
      kitV: ['kitW'],
    };
    const reads: string[] = [];
    const childrenOf = (id: string) => {
      reads.push(id);
      return tree[id] ?? [];
    };
    expect(() => assertNoCycle('parent', 'kitX', childrenOf)).not.toThrow();
    expect([...reads].sort()).toEqual(['c', 'kitV', 'kitW', 'kitX', 'kitY', 'kitZ']);
  });
});
