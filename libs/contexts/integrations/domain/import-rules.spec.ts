import { credentialsHint, resolveSettings } from './connector-types';
import { importPosting, isImportable, payoutPosting } from './import-rules';
import { addressRefusal, shopUrlRefusal } from './shop-url';

describe('integration rules', () => {
  it('debits clearing with an imported order’s total, credits the recognised tax and the rest as revenue', () => {
    expect(importPosting('55', { net: '55', tax: '0' })).toEqual({
      debit_clearing: '55.0000',
      credit_revenue: '55.0000',
      credit_tax: '0.0000',
    });
    expect(importPosting('108.25', { net: '100', tax: '8.25' })).toEqual({
      debit_clearing: '108.2500',
      credit_revenue: '100.0000',
      credit_tax: '8.2500',
    });
  });

  it('splits a payout into gross, fees and net, refusing figures that do not add up', () => {
    expect(payoutPosting({ gross: '55.00', fees: '1.90', net: '53.10' })).toEqual({
      credit_clearing: '55.00',
      debit_fees: '1.90',
      debit_bank: '53.10',
    });
    expect(() => payoutPosting({ gross: '55.00', fees: '1.90', net: '53.00' })).toThrow(/not its fees/);
    expect(() => payoutPosting({ gross: '1.00', fees: '-1.00', net: '2.00' })).toThrow(/not its fees/);
  });

  it('imports only the configured statuses', () => {
    expect(isImportable('paid', ['paid'])).toBe(true);
    expect(isImportable('pending', ['paid'])).toBe(false);
  });

  it('masks credentials to their last 4 characters, and short ones entirely', () => {
    expect(credentialsHint({ access_token: 'shpat_0123456789abcdef' })).toBe('••••cdef');
    expect(credentialsHint({ api_key: 'short' })).toBe('••••');
    expect(credentialsHint({})).toBeNull();
  });

  it('fills settings defaults and refuses an adapter the connector lacks', () => {
    expect(resolveSettings('storefront', undefined)).toMatchObject({
      adapter: 'sandbox',
      import_order_statuses: ['paid'],
    });
    expect(() => resolveSettings('marketplace1', undefined, { adapter: 'shopify' })).toThrow(/adapter/);
    expect(() => resolveSettings('storefront', undefined, { adapter: 'shopify' })).toThrow(/shop_url/);
  });

  it('refuses private and plain-http shop URLs unless allowed, and metadata addresses always', () => {
    expect(shopUrlRefusal('https://example.myshopify.com', false)).toBeUndefined();
    expect(shopUrlRefusal('http://example.myshopify.com', false)).toMatch(/https/);
    expect(shopUrlRefusal('https://127.0.0.1:8443', false)).toMatch(/loopback/);
    expect(shopUrlRefusal('http://127.0.0.1:8443', true)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', true)).toMatch(/metadata/);
  });
});
