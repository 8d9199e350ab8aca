import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '#platform/config/app-config';
import { parseSecretsKey } from '#platform/crypto/secret-box';
import { money } from '#platform/domain/money';
import { RequestContext } from '#platform/tenancy/request-context';
import { CarrierRate } from '../application/carrier.port';

/** A quoted rate as its rate_object_id carries it: who quoted it, its terms and its expiry. */
export interface SignedRate {
  provider: string;
  rate: CarrierRate;
  expiresAt: Date;
}

/** What a rate_object_id was found to be: a rate of the order, an expired one, or none of ours. */
export type RateReading =
  { kind: 'rate'; signed: SignedRate } | { kind: 'expired'; expiresAt: Date } | { kind: 'unknown' };

type Payload = [
  provider: string,
  carrier: string,
  service: string,
  amount: string,
  currency: string,
  estimatedDays: number | null,
  insuranceFee: string,
  providerShipmentId: string | null,
  providerRateId: string | null,
  expiresAtSeconds: number,
];

/**
 * Quoted rates are kept nowhere: a rate_object_id carries the rate itself (`rate_<payload>.<mac>`,
 * the payload base64url JSON), signed with a key derived from SECRETS_KEY over the entity, mode
 * and order it was quoted for. Buying reads the terms back from it; a client cannot change a
 * price, move a rate to another order or entity, or stretch its expiry.
 */
@Injectable()
export class RateSigner {
  /** The signing keys, derived from SECRETS_KEY's keys: the first signs, any verifies. */
  private readonly keys: Buffer[];

  constructor(config: AppConfig) {
    this.keys = [...parseSecretsKey(config.secretsKey).values()].map((key) =>
      createHmac('sha256', key).update('fulfillment.shipping_rate').digest(),
    );
  }

  /** The rate_object_id of `rate`, quoted by `provider` for `orderId`, valid until `expiresAt`. */
  sign(orderId: string, provider: string, rate: CarrierRate, expiresAt: Date): string {
    const payload: Payload = [
      provider,
      rate.carrier,
      rate.service,
      rate.amount.toString(),
      rate.currency,
      rate.estimatedDays,
      rate.insuranceFee.toString(),
      rate.providerShipmentId,
      rate.providerRateId,
      Math.floor(expiresAt.getTime() / 1000),
    ];
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `rate_${encoded}.${this.mac(this.keys[0], orderId, encoded).toString('base64url')}`;
  }

  /**
   * What `rateObjectId` is for `orderId` at `now`: its rate; `expired` once past its expiry
   * (told before the signature is checked: an expired rate buys nothing either way); `unknown`
   * when it is not a rate_object_id or not one signed for this entity, mode and order.
   */
  read(orderId: string, rateObjectId: string, now = Date.now()): RateReading {
    const match = /^rate_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(rateObjectId);
    if (!match) return { kind: 'unknown' };
    const [, encoded, mac] = match;
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Payload;
    } catch {
      return { kind: 'unknown' };
    }
    if (!Array.isArray(payload) || payload.length !== 10 || typeof payload[9] !== 'number')
      return { kind: 'unknown' };
    const expiresAt = new Date(payload[9] * 1000);
    if (expiresAt.getTime() <= now) return { kind: 'expired', expiresAt };
    const given = Buffer.from(mac, 'base64url');
    const signed = this.keys.some((key) => {
      const expected = this.mac(key, orderId, encoded);
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!signed) return { kind: 'unknown' };
    const [provider, carrier, service, amount, currency, estimatedDays, insuranceFee, shipmentId, rateId] =
      payload;
    return {
      kind: 'rate',
      signed: {
        provider,
        expiresAt,
        rate: {
          carrier,
          service,
          amount: money(amount),
          currency,
          estimatedDays,
          insuranceFee: money(insuranceFee),
          providerShipmentId: shipmentId,
          providerRateId: rateId,
        },
      },
    };
  }

  private mac(key: Buffer, orderId: string, encoded: string): Buffer {
    const { entityId, livemode } = RequestContext.caller();
    // 128 bits of HMAC-SHA256 keep the id short and are beyond guessing.
    return createHmac('sha256', key)
      .update(`${entityId}|${String(livemode)}|${orderId}|${encoded}`)
      .digest()
      .subarray(0, 16);
  }
}
