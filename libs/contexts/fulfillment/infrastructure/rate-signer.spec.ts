import { randomBytes } from 'node:crypto';
import { AppConfig } from '#platform/config/app-config';
import { money } from '#platform/domain/money';
import { RequestContext } from '#platform/tenancy/request-context';
import { CarrierRate } from '../application/carrier.port';
import { RateSigner } from './rate-signer';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const signer = (secrets: string) => new RateSigner({ secretsKey: secrets } as AppConfig);
const as = (entityId: string, livemode = true) =>
  jest
    .spyOn(RequestContext, 'caller')
    .mockReturnValue({ entityId, livemode } as ReturnType<typeof RequestContext.caller>);

const RATE: CarrierRate = {
  carrier: 'usps',
  service: 'priority',
  amount: money('10.75'),
  currency: 'USD',
  estimatedDays: 2,
  insuranceFee: money('1.80'),
  providerShipmentId: null,
  providerRateId: null,
};
const ORDER = '0b6a4f5e-8c1d-4e2f-9a3b-5c6d7e8f9a0b';
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const IN_A_DAY = new Date(NOW + 24 * 3600_000);

describe('RateSigner', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads back the rate it signed, for the same entity, mode and order', () => {
    as('entity-a');
    const s = signer(key('k1'));
    const id = s.sign(ORDER, 'sandbox', RATE, IN_A_DAY);
    expect(id.length).toBeLessThanOrEqual(512);
    const reading = s.read(ORDER, id, NOW);
    expect(reading).toEqual({
      kind: 'rate',
      signed: { provider: 'sandbox', expiresAt: IN_A_DAY, rate: RATE },
    });
  });

  it('knows nothing of a changed price, another order, entity or mode, or another key', () => {
    as('entity-a');
    const s = signer(key('k1'));
    const id = s.sign(ORDER, 'sandbox', RATE, IN_A_DAY);
    const [encoded, mac] = id.slice(5).split('.');
    const terms = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as unknown[];
    terms[3] = '0.01';
    const cheaper = `rate_${Buffer.from(JSON.stringify(terms)).toString('base64url')}.${mac}`;
    expect(s.read(ORDER, cheaper, NOW)).toEqual({ kind: 'unknown' });
    expect(s.read('1c7b5a6f-9d2e-4f30-8b4c-6d7e8f9a0b1c', id, NOW)).toEqual({ kind: 'unknown' });
    expect(signer(key('k2')).read(ORDER, id, NOW)).toEqual({ kind: 'unknown' });
    as('entity-b');
    expect(s.read(ORDER, id, NOW)).toEqual({ kind: 'unknown' });
    as('entity-a', false);
    expect(s.read(ORDER, id, NOW)).toEqual({ kind: 'unknown' });
    for (const junk of ['rate_unknown', 'x', 'rate_e30.AAAA', `rate_${encoded}`])
      expect(s.read(ORDER, junk, NOW)).toEqual({ kind: 'unknown' });
  });

  it('is expired from its expiry on, and verifies with any listed key (rotation)', () => {
    as('entity-a');
    const old = key('k1');
    const id = signer(old).sign(ORDER, 'sandbox', RATE, IN_A_DAY);
    expect(signer(old).read(ORDER, id, IN_A_DAY.getTime())).toEqual({ kind: 'expired', expiresAt: IN_A_DAY });
    expect(signer(`${key('k2')},${old}`).read(ORDER, id, NOW).kind).toBe('rate');
  });
});
