import { buildTransition, componentDraws } from './build';

describe('build state machine', () => {
  it('posts and voids drafts only', () => {
    expect(buildTransition('post', { id: 'b', status: 'draft' })).toBe('posted');
    expect(buildTransition('void', { id: 'b', status: 'draft' })).toBe('voided');
    for (const status of ['posted', 'voided'] as const)
      for (const action of ['post', 'void'] as const)
        expect(() => buildTransition(action, { id: 'b', status })).toThrow(
          expect.objectContaining({ code: 'invalid_state', hint: expect.stringContaining(` is ${status};`) }),
        );
    expect(() => buildTransition('void', { id: 'b', status: 'posted' })).toThrow(
      "Build 'b' is posted; only draft builds can be voided.",
    );
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
