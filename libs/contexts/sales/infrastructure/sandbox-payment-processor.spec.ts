import { cardBrand, luhnValid, SandboxPaymentProcessor } from './sandbox-payment-processor';

describe('sandbox payment processor', () => {
  const processor = new SandboxPaymentProcessor();
  const card = (number: string, exp_year = 2099) => ({ number, exp_month: 12, exp_year });
  const charge = (number: string, exp_year?: number) =>
    processor.charge({ amount: '10.00', currency: 'USD', card: card(number, exp_year), description: 't' });

  it('checks numbers with Luhn and names brands', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('42')).toBe(false);
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
  });

  it('approves 4242424242424242 and declines the decline numbers', async () => {
    expect(await charge('4242424242424242')).toMatchObject({ approved: true, brand: 'visa', last4: '4242' });
    expect(await charge('4000000000000002')).toMatchObject({ approved: false, declineCode: 'card_declined' });
    expect(await charge('4000000000009995')).toMatchObject({
      approved: false,
      declineCode: 'insufficient_funds',
    });
    expect(await charge('4242424242424241')).toMatchObject({
      approved: false,
      declineCode: 'incorrect_number',
    });
    expect(await charge('4242424242424242', 2001)).toMatchObject({
      approved: false,
      declineCode: 'expired_card',
    });
  });

  it('approves stored payment methods and refunds with a reference', async () => {
    expect(
      await processor.charge({ amount: '1.00', currency: 'USD', paymentMethodId: 'pm', description: 't' }),
    ).toMatchObject({ approved: true });
    const refund = (key: string) =>
      processor.refund({ chargeReference: 'ch_x', amount: '1.00', currency: 'USD', idempotencyKey: key });
    const first = await refund('refund_a');
    expect(first).toMatchObject({ refunded: true, reference: expect.stringMatching(/^re_sandbox_/) });
    // The same key answers the same refund; another key is another refund.
    expect(await refund('refund_a')).toEqual(first);
    expect(await refund('refund_b')).not.toEqual(first);
  });
});
