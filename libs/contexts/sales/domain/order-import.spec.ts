import { orderImportStatus, sameImportedOrder, StoredOrderContent } from './order-import';

const stored: StoredOrderContent = {
  document_type: 'invoice',
  account_id: 'acc-1',
  currency: 'USD',
  notes: 'legacy',
  metadata: { legacy_id: 'L1' },
  lines: [
    {
      product_id: 'prod-1',
      description: 'Widget',
      quantity: 2,
      unit_price: 12.5,
      discount_percent: 0,
      discount_amount: 0,
      tax_rate: 8.25,
    },
  ],
};

describe('orderImportStatus', () => {
  it('defaults to draft and accepts draft or confirmed', () => {
    expect(orderImportStatus(undefined)).toBe('draft');
    expect(orderImportStatus('draft')).toBe('draft');
    expect(orderImportStatus('confirmed')).toBe('confirmed');
  });

  it.each(['posted', 'CONFIRMED', null, 1])('refuses %p naming status', (value) => {
    expect(() => orderImportStatus(value)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'status' }),
    );
  });
});

describe('sameImportedOrder', () => {
  const record = {
    document_type: 'invoice',
    account_id: 'acc-1',
    currency: 'usd',
    notes: 'legacy',
    metadata: { legacy_id: 'L1' },
    lines: [{ product_id: 'prod-1', quantity: 2, tax_rate: 8.25 }],
  };

  it('matches the same content, with absent product defaults not compared', () => {
    expect(sameImportedOrder(stored, record)).toBe(true);
    expect(sameImportedOrder(stored, { document_type: 'invoice' })).toBe(true);
    expect(
      sameImportedOrder(stored, {
        ...record,
        lines: [{ ...record.lines[0], unit_price: 12.5, description: 'Widget' }],
      }),
    ).toBe(true);
  });

  it.each([
    ['document type (default sales_order)', { ...record, document_type: undefined }],
    ['account', { ...record, account_id: 'acc-2' }],
    ['currency', { ...record, currency: 'EUR' }],
    ['notes', { ...record, notes: null }],
    ['metadata value', { ...record, metadata: { legacy_id: 'L2' } }],
    ['metadata removal', { ...record, metadata: { legacy_id: null } }],
    ['line count', { ...record, lines: [] }],
    ['quantity', { ...record, lines: [{ ...record.lines[0], quantity: 3 }] }],
    ['tax rate (default 0)', { ...record, lines: [{ product_id: 'prod-1', quantity: 2 }] }],
    ['unit price', { ...record, lines: [{ ...record.lines[0], unit_price: 12.4999 }] }],
    ['product', { ...record, lines: [{ ...record.lines[0], product_id: null }] }],
    ['description', { ...record, lines: [{ ...record.lines[0], description: 'Gadget' }] }],
  ])('differs on %s', (_, changed) => {
    expect(sameImportedOrder(stored, changed)).toBe(false);
  });
});
