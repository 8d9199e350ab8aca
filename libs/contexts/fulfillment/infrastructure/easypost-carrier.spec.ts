import http from 'node:http';
import { AddressInfo } from 'node:net';
import { money } from '#platform/domain/money';
import { CarrierFailure } from '../application/carrier.port';
import { EasyPostCarrier, serviceCodeOf } from './easypost-carrier';

interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  body: unknown;
}

/**
 * A local server answering EasyPost's documented REST shapes (v2): shipments with rates,
 * buy with insurance, label conversion, refunds, and the error envelope `{ error: { code, message } }`.
 */
function contractServer() {
  const seen: Seen[] = [];
  let refundStatus = 'submitted';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      seen.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const url = req.url!;
      if (req.method === 'POST' && url === '/v2/shipments') {
        if (body.shipment.parcel.weight > 70 * 16)
          return send(422, {
            error: {
              code: 'SHIPMENT.INVALID_PARAMS',
              message: 'Parcel weight exceeds the limit',
              errors: [],
            },
          });
        return send(201, {
          id: 'shp_123',
          object: 'Shipment',
          rates: [
            {
              id: 'rate_usps_pri',
              object: 'Rate',
              carrier: 'USPS',
              service: 'Priority',
              rate: '8.15',
              currency: 'USD',
              delivery_days: 2,
              shipment_id: 'shp_123',
            },
            {
              id: 'rate_ups_ground',
              object: 'Rate',
              carrier: 'UPS',
              service: 'Ground',
              rate: '11.42',
              currency: 'USD',
              delivery_days: 5,
              shipment_id: 'shp_123',
            },
            {
              id: 'rate_fedex_2day',
              object: 'Rate',
              carrier: 'FedEx',
              service: 'FEDEX_2_DAY',
              rate: '21.30',
              currency: 'USD',
              delivery_days: null,
              est_delivery_days: 2,
              shipment_id: 'shp_123',
            },
          ],
        });
      }
      if (req.method === 'POST' && url === '/v2/shipments/shp_123/buy') {
        if (body.rate.id === 'rate_gone')
          return send(422, {
            error: { code: 'SHIPMENT.POSTAGE.FAILURE', message: 'The rate is no longer available' },
          });
        return send(200, {
          id: 'shp_123',
          tracking_code: '9405500000000000000001',
          selected_rate: {
            id: body.rate.id,
            carrier: 'USPS',
            service: 'Priority',
            rate: '8.15',
            currency: 'USD',
          },
          postage_label: { label_url: `${base}/files/label.png`, label_pdf_url: null, label_zpl_url: null },
          tracker: { public_url: 'https://track.easypost.com/djE6dHJrXzEyMw' },
          insurance: body.insurance ?? null,
          fees: [
            { object: 'Fee', type: 'LabelFee', amount: '0.00000' },
            { object: 'Fee', type: 'InsuranceFee', amount: '1.50000' },
          ],
        });
      }
      if (req.method === 'GET' && url === '/v2/shipments/shp_123/label?file_format=PDF')
        return send(200, {
          id: 'shp_123',
          tracking_code: '9405500000000000000001',
          postage_label: { label_url: `${base}/files/label.png`, label_pdf_url: `${base}/files/label.pdf` },
        });
      if (req.method === 'GET' && url === '/files/label.pdf') {
        res.writeHead(200, { 'Content-Type': 'application/pdf' });
        return res.end('%PDF-1.4 easypost label');
      }
      if (req.method === 'POST' && url === '/v2/shipments/shp_123/refund')
        return send(200, { id: 'shp_123', refund_status: refundStatus });
      send(404, { error: { code: 'NOT_FOUND', message: 'not found' } });
    });
  });
  return { server, seen, setRefundStatus: (s: string) => (refundStatus = s) };
}

describe('EasyPost adapter against a local contract server', () => {
  const contract = contractServer();
  let carrier: EasyPostCarrier;
  const parcel = { weightLb: money('2.5'), lengthIn: money('10'), widthIn: money('8'), heightIn: money('4') };
  const shipTo = { name: 'QA Customer Inc', lines: ['1 Main St', '', 'Springfield'] };

  beforeAll(async () => {
    await new Promise<void>((r) => contract.server.listen(0, '127.0.0.1', r));
    carrier = new EasyPostCarrier(
      'EZTK_test_key',
      `http://127.0.0.1:${(contract.server.address() as AddressInfo).port}/v2`,
    );
  });
  afterAll(() => new Promise((r) => contract.server.close(r)));

  it('maps service names', () => {
    expect(serviceCodeOf('usps', 'GroundAdvantage')).toBe('ground_advantage');
    expect(serviceCodeOf('fedex', 'FEDEX_2_DAY')).toBe('2_day');
    expect(serviceCodeOf('ups', '2ndDayAir')).toBe('2nd_day_air');
    expect(serviceCodeOf('dhlexpress', 'ExpressWorldwide')).toBe('express_worldwide');
  });

  it('creates a shipment (ounces, inches, Basic auth) and maps its rates', async () => {
    const rates = await carrier.quote({ reference: 'pkg_1', parcel, shipTo, insuredAmount: money('100') });
    const call = contract.seen.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', path: '/v2/shipments' });
    expect(call.auth).toBe(`Basic ${Buffer.from('EZTK_test_key:').toString('base64')}`);
    expect(call.body).toMatchObject({
      shipment: {
        reference: 'pkg_1',
        parcel: { weight: 40, length: 10, width: 8, height: 4 },
        to_address: { name: 'QA Customer Inc' },
      },
    });
    expect(
      rates.map((r) => [r.carrier, r.service, r.amount.toFixed(2), r.estimatedDays, r.providerRateId]),
    ).toEqual([
      ['usps', 'priority', '8.15', 2, 'rate_usps_pri'],
      ['ups', 'ground', '11.42', 5, 'rate_ups_ground'],
      ['fedex', '2_day', '21.30', 2, 'rate_fedex_2day'],
    ]);
    expect(rates[0]).toMatchObject({ providerShipmentId: 'shp_123' });
    expect(rates[0].insuranceFee.toFixed(2)).toBe('1.50');
  });

  it('buys with insurance, converts the label to PDF and downloads it', async () => {
    const [rate] = await carrier.quote({ reference: 'pkg_1', parcel, shipTo, insuredAmount: null });
    const label = await carrier.purchase({
      reference: 'pkg_1',
      parcel,
      shipTo,
      rate,
      insuredAmount: money('100'),
      fileType: 'PDF',
      label: { weightLb: '2.5', shipFrom: [], shipTo: ['QA Customer Inc'] },
    });
    const buy = contract.seen.find((s) => s.path === '/v2/shipments/shp_123/buy')!;
    expect(buy.body).toEqual({ rate: { id: 'rate_usps_pri' }, insurance: '100.00' });
    expect(contract.seen.some((s) => s.path === '/v2/shipments/shp_123/label?file_format=PDF')).toBe(true);
    expect(label).toMatchObject({
      trackingNumber: '9405500000000000000001',
      trackingUrl: 'https://track.easypost.com/djE6dHJrXzEyMw',
      contentType: 'application/pdf',
      providerShipmentId: 'shp_123',
    });
    expect(label.amount.toFixed(2)).toBe('8.15');
    expect(label.insuredAmount!.toFixed(2)).toBe('100.00');
    expect(label.insuranceFee!.toFixed(2)).toBe('1.50');
    expect(Buffer.isBuffer(label.content) && label.content.toString()).toContain('%PDF');
  });

  it("turns EasyPost's 4xx error envelope into a carrier refusal", async () => {
    await expect(
      carrier.quote({
        reference: 'x',
        parcel: { ...parcel, weightLb: money('90') },
        shipTo,
        insuredAmount: null,
      }),
    ).rejects.toThrow(CarrierFailure);
    const [rate] = await carrier.quote({ reference: 'pkg_1', parcel, shipTo, insuredAmount: null });
    await expect(
      carrier.purchase({
        reference: 'pkg_1',
        parcel,
        shipTo,
        rate: { ...rate, providerRateId: 'rate_gone' },
        insuredAmount: null,
        fileType: 'PNG',
        label: { weightLb: '2.5', shipFrom: [], shipTo: [] },
      }),
    ).rejects.toThrow(/no longer available/);
  });

  it('refunds: submitted or refunded is a refund, rejected or not_applicable a refusal', async () => {
    const label = {
      carrier: 'usps',
      service: 'priority',
      trackingNumber: 't',
      providerShipmentId: 'shp_123',
    };
    expect(await carrier.refund(label)).toBe('refunded');
    contract.setRefundStatus('not_applicable');
    expect(await carrier.refund(label)).toBe('rejected');
    expect(await carrier.refund({ ...label, providerShipmentId: null })).toBe('rejected');
  });
});
