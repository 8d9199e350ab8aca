import { assertBuildTransition, componentDraws, nextStatus } from './build';

describe('build state machine', () => {
  it('posts and voids drafts only', () => {
    expect(() => assertBuildTransition('post', { id: 'b', status: 'draft' })).not.toThrow();
    expect(() => assertBuildTransition('void', { id: 'b', status: 'draft' })).not.toThrow();
    expect(() => assertBuildTransition('post', { id: 'b', status: 'posted' })).toThrow(/posted/);
    expect(() => assertBuildTransition('void', { id: 'b', status: 'posted' })).toThrow(/only draft/);
    expect(() => assertBuildTransition('post', { id: 'b', status: 'voided' })).toThrow(/voided/);
    expect(nextStatus('post')).toBe('posted');
    expect(nextStatus('void')).toBe('voided');
  });

  it('draws quantity per kit times kits built', () => {
    expect(
      componentDraws(3, [
        { componentProductId: 'c1', quantity: 2 },
        { componentProductId: 'c2', quantity: 1 },
      ]),
    ).toEqual([
      { productId: 'c1', quantity: 6 },
      { productId: 'c2', quantity: 3 },
    ]);
  });
});
