import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CardDetails,
  ChargeRequest,
  ChargeResult,
  PaymentProcessor,
  RefundRequest,
  RefundResult,
} from '../application/ports/payment-processor.port';

/** Test card numbers, as every payment sandbox has them (docs/api-decisions.md, Sales, "Payments and refunds"). */
export const SANDBOX_DECLINES: Record<string, { code: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', message: 'The card was declined.' },
  '4000000000009995': { code: 'insufficient_funds', message: 'The card has insufficient funds.' },
  '4000000000000069': { code: 'expired_card', message: 'The card has expired.' },
  '4000000000000127': { code: 'incorrect_cvc', message: 'The card security code is incorrect.' },
};

/** How many refund idempotency keys the sandbox remembers. */
const REMEMBERED_REFUNDS = 10_000;

const BRANDS: [RegExp, string][] = [
  [/^4/, 'visa'],
  [/^5[1-5]/, 'mastercard'],
  [/^3[47]/, 'amex'],
  [/^6(011|5)/, 'discover'],
];

/** Luhn check of a card number (digits only). */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export const cardBrand = (number: string): string => BRANDS.find(([re]) => re.test(number))?.[1] ?? 'unknown';

/**
 * The sandbox processor: every Luhn-valid card approves except the decline numbers above
 * (a number failing the Luhn check declines with `incorrect_number`);
 * a card whose expiry has passed declines with `expired_card`; stored payment methods approve.
 * Refunds remember their last 10,000 idempotency keys for the life of the process.
 */
@Injectable()
export class SandboxPaymentProcessor implements PaymentProcessor {
  private readonly refunds = new Map<string, RefundResult>();

  charge(request: ChargeRequest): Promise<ChargeResult> {
    if (!request.card)
      return Promise.resolve({ approved: true, reference: this.reference('ch'), brand: null, last4: null });
    const card: CardDetails = request.card;
    const brand = cardBrand(card.number);
    const last4 = card.number.slice(-4);
    if (!luhnValid(card.number)) {
      return Promise.resolve({
        approved: false,
        declineCode: 'incorrect_number',
        message: 'The card number is incorrect.',
        brand,
        last4,
      });
    }
    const decline = SANDBOX_DECLINES[card.number];
    if (decline)
      return Promise.resolve({
        approved: false,
        declineCode: decline.code,
        message: decline.message,
        brand,
        last4,
      });
    const now = new Date();
    if (
      card.exp_year < now.getUTCFullYear() ||
      (card.exp_year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1)
    ) {
      return Promise.resolve({
        approved: false,
        declineCode: 'expired_card',
        message: 'The card has expired.',
        brand,
        last4,
      });
    }
    return Promise.resolve({ approved: true, reference: this.reference('ch'), brand, last4 });
  }

  /** Refunds always succeed; a repeated idempotency key answers the first refund again. */
  refund(request: RefundRequest): Promise<RefundResult> {
    let result = this.refunds.get(request.idempotencyKey);
    if (!result) {
      result = { refunded: true, reference: this.reference('re') };
      // The oldest keys go first: a retry comes within minutes, not after thousands of refunds.
      if (this.refunds.size >= REMEMBERED_REFUNDS) this.refunds.delete(this.refunds.keys().next().value!);
      this.refunds.set(request.idempotencyKey, result);
    }
    return Promise.resolve(result);
  }

  private reference(prefix: string): string {
    return `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;
  }
}
