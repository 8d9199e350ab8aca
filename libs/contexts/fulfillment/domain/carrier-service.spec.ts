import { resolveCarrierService, SERVICE_LEVELS, splitCarrierService } from './carrier-service';

describe('carrier_service mapping', () => {
  it('splits every compound code by the table, underscores included', () => {
    expect(splitCarrierService('ups_2nd_day_air')).toMatchObject({ carrier: 'ups', service: '2nd_day_air' });
    expect(splitCarrierService('FEDEX_2_DAY')).toMatchObject({ carrier: 'fedex', service: '2_day' });
    expect(splitCarrierService('usps_priority_express')).toMatchObject({
      carrier: 'usps',
      service: 'priority_express',
    });
    expect(new Set(SERVICE_LEVELS.map((s) => s.carrier))).toEqual(new Set(['usps', 'ups', 'fedex']));
  });

  it('rejects an unknown code with 400 on carrier_service', () => {
    expect(() => splitCarrierService('dhl_express')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'carrier_service' }),
    );
  });

  it('accepts carrier and service separately, lower-cased, and checks they agree with the code', () => {
    expect(resolveCarrierService({ carrier: 'USPS', service: 'Priority' })).toEqual({
      carrier: 'usps',
      service: 'priority',
    });
    expect(resolveCarrierService({ carrier_service: 'ups_ground', carrier: 'ups' })).toEqual({
      carrier: 'ups',
      service: 'ground',
    });
    expect(() => resolveCarrierService({ carrier_service: 'ups_ground', carrier: 'usps' })).toThrow(
      expect.objectContaining({ code: 'parameter_invalid' }),
    );
    expect(() => resolveCarrierService({ carrier: 'dhl' })).toThrow(
      expect.objectContaining({ param: 'carrier' }),
    );
    expect(() => resolveCarrierService({ carrier: 'ups', service: 'priority' })).toThrow(
      expect.objectContaining({ param: 'service' }),
    );
  });
});
