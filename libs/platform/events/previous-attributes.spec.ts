import { previousAttributes } from './previous-attributes';

describe('previousAttributes', () => {
  it('keeps the old value of each changed field only, nested values compared by content', () => {
    const before = { name: 'a', price: 1, weight: { value: 1, unit: 'kg' }, tags: ['x'], updated_at: 't1' };
    const after = {
      name: 'b',
      price: 1,
      weight: { value: 1, unit: 'kg' },
      tags: ['x', 'y'],
      updated_at: 't2',
    };
    expect(previousAttributes(before, after)).toEqual({ name: 'a', tags: ['x'] });
  });

  it('ignores the listed fields', () => {
    expect(previousAttributes({ a: 1, b: 1 }, { a: 2, b: 2 }, ['a', 'b'])).toEqual({});
  });
});
