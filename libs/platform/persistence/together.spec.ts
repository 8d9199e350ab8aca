import { together } from './together';

const later = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(value) : resolve(value)), ms));

describe('together', () => {
  it('answers the values in the order of the branches', async () => {
    await expect(together([later(20, 'a'), later(5, 2), 'c'])).resolves.toEqual(['a', 2, 'c']);
  });

  it('throws the error that arrived first, not the first branch', async () => {
    const failure = together([later(30, new Error('behind'), true), later(5, new Error('first'), true)]);
    await expect(failure).rejects.toThrow('first');
  });

  it('waits for every branch to settle before it throws', async () => {
    let slowDone = false;
    const slow = later(40, 'slow').then((v) => {
      slowDone = true;
      return v;
    });
    await expect(together([later(1, new Error('early'), true), slow])).rejects.toThrow('early');
    expect(slowDone).toBe(true);
  });
});
