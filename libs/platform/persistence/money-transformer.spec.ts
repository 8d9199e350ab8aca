import { money } from '#platform/domain/money';
import { moneyTransformer } from './money-transformer';

describe('moneyTransformer', () => {
  it('maps numeric(19,4) strings both ways without floats', () => {
    expect(moneyTransformer.to(money('12.34567'))).toBe('12.3457');
    expect(moneyTransformer.from('0.3000').toString()).toBe('0.3');
    expect(moneyTransformer.from(null)).toBeNull();
  });
});
