import { isUuid, isUuidV7, newId, uuidV7At } from './ids';

describe('newId (UUIDv7)', () => {
  it('makes valid version-7, RFC variant ids', () => {
    for (let i = 0; i < 1000; i++) {
      const id = newId();
      expect(isUuid(id)).toBe(true);
      expect(isUuidV7(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
  });

  it('carries the millisecond in its first 48 bits', () => {
    const ms = Date.UTC(2030, 4, 17, 12, 30, 45, 678);
    const id = uuidV7At(ms);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
  });

  it('sorts in creation order within one millisecond and across them, without repeats', () => {
    const ms = Date.UTC(2031, 0, 1);
    const ids: string[] = [];
    for (let i = 0; i < 20_000; i++) ids.push(uuidV7At(ms + Math.floor(i / 5000)));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays ordered when the clock goes back', () => {
    const ms = Date.UTC(2032, 0, 1);
    const first = uuidV7At(ms);
    const second = uuidV7At(ms - 50);
    expect(second > first).toBe(true);
  });

  it('differs in its random tail between processes-worth of draws', () => {
    const tails = new Set(Array.from({ length: 500 }, () => newId().slice(24)));
    expect(tails.size).toBe(500);
  });
});
