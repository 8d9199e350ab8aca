import { money, toJsonNumber } from './money';

describe('money', () => {
  it('adds 1,000 lines of 0.1 to exactly 100', () => {
    let total = money(0);
    for (let i = 0; i < 1000; i++) total = total.plus('0.1');
    expect(total.toFixed(4)).toBe('100.0000');
  });

  it('renders JSON numbers with at most the given places', () => {
    expect(toJsonNumber(money('10.125'), 2)).toBe(10.12);
    expect(toJsonNumber(money('1.23456'))).toBe(1.2346);
    expect(toJsonNumber(null)).toBeNull();
  });
});
