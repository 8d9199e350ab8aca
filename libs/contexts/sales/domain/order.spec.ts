import { money } from '#platform/domain/money';
import {
  orderAllowedFrom,
  amountDueOf,
  assertAccountChange,
  assertLineCapacity,
  MAX_ORDER_LINES,
  assertReadyForFulfillment,
  assertUpdate,
  conversionTarget,
  DocumentType,
  editRevises,
  isIssuedStatus,
  isPostedInvoice,
  isRevisionPending,
  linesHoldCommitments,
  OrderAction,
  OrderStatus,
  orderTransition,
  paymentStatusOf,
  purchasingCompanion,
} from './order';
import { lineAmounts, orderTotals } from './order-totals';
import { SalesError } from './sales-error';

const state = (
  documentType: DocumentType,
  orderStatus: OrderStatus,
  paid = 0,
  convertedToId: string | null = null,
) => ({
  documentType,
  orderStatus,
  amountPaid: money(paid),
  convertedToId,
});

const codeOf = (fn: () => void): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as SalesError).code;
  }
};

describe('order state machine', () => {
  it('confirms drafts only', () => {
    expect(codeOf(() => orderTransition('confirm', state('sales_order', 'draft')))).toBeUndefined();
    for (const status of ['confirmed', 'fulfilled', 'closed', 'cancelled', 'voided'] as const) {
      expect(codeOf(() => orderTransition('confirm', state('sales_order', status)))).toBe('invalid_state');
    }
  });

  it('cancels drafts and confirmed non-invoices without payments; voids confirmed documents without payments', () => {
    expect(codeOf(() => orderTransition('cancel', state('sales_order', 'confirmed')))).toBeUndefined();
    expect(codeOf(() => orderTransition('cancel', state('invoice', 'draft')))).toBeUndefined();
    expect(codeOf(() => orderTransition('cancel', state('invoice', 'confirmed')))).toBe('invalid_state');
    expect(codeOf(() => orderTransition('void', state('invoice', 'confirmed')))).toBeUndefined();
    expect(codeOf(() => orderTransition('void', state('invoice', 'draft')))).toBe('invalid_state');
    expect(codeOf(() => orderTransition('void', state('invoice', 'confirmed', 5)))).toBe('invalid_state');
    // A credit memo already reversed part of the invoice: no void on top of it.
    expect(
      codeOf(() => orderTransition('void', { ...state('invoice', 'confirmed'), amountCredited: money(55) })),
    ).toBe('invalid_state');
    expect(codeOf(() => orderTransition('cancel', state('sales_order', 'cancelled')))).toBe('invalid_state');
  });

  it('names the current status in the hint', () => {
    expect(() => orderTransition('confirm', state('quote', 'cancelled'))).toThrow(
      expect.objectContaining({ hint: expect.stringContaining("'cancelled'") }),
    );
  });

  it('converts quotes to sales orders and sales orders to invoices, once', () => {
    expect(conversionTarget('quote')).toBe('sales_order');
    expect(conversionTarget('sales_order')).toBe('invoice');
    expect(conversionTarget('invoice')).toBeNull();
    expect(codeOf(() => orderTransition('convert', state('quote', 'draft')))).toBeUndefined();
    expect(codeOf(() => orderTransition('convert', state('sales_order', 'draft')))).toBe('invalid_state');
    expect(codeOf(() => orderTransition('convert', state('sales_order', 'confirmed', 0, 'x')))).toBe(
      'invalid_state',
    );
    expect(codeOf(() => orderTransition('convert', state('invoice', 'confirmed')))).toBe('invalid_state');
  });

  it('takes payments on issued invoices only and lets confirmed quotes and sales orders be edited', () => {
    expect(orderAllowedFrom('pay', state('invoice', 'draft'))).toEqual(['confirmed', 'fulfilled', 'closed']);
    expect(orderAllowedFrom('pay', state('sales_order', 'confirmed'))).toEqual([]);
    expect(orderAllowedFrom('edit', state('sales_order', 'confirmed'))).toContain('confirmed');
    expect(orderAllowedFrom('edit', state('invoice', 'confirmed'))).toEqual(['draft']);
  });

  it('deletes drafts only', () => {
    expect(() => orderTransition('delete', state('purchase_order', 'draft'))).not.toThrow();
    expect(codeOf(() => orderTransition('delete', state('sales_order', 'confirmed')))).toBe('invalid_state');
    expect(codeOf(() => orderTransition('delete', state('invoice', 'cancelled')))).toBe('invalid_state');
  });
});

/**
 * Written by hand: per document type and action, every allowed move as from>to (nothing paid,
 * never converted); every other status is refused with 409 invalid_state.
 */
// prettier-ignore
const MOVES: Record<DocumentType, Record<OrderAction, string>> = {
  quote: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled confirmed>cancelled', void: 'confirmed>voided',
    fulfill: '', close: 'confirmed>closed fulfilled>closed', convert: 'draft>closed confirmed>closed',
    send: 'draft>draft confirmed>confirmed', edit: 'draft>draft confirmed>confirmed', pay: '', delete: 'draft>draft',
  },
  sales_order: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled confirmed>cancelled', void: 'confirmed>voided',
    fulfill: 'confirmed>fulfilled', close: 'confirmed>closed fulfilled>closed',
    convert: 'confirmed>confirmed fulfilled>fulfilled', send: 'draft>draft confirmed>confirmed',
    edit: 'draft>draft confirmed>confirmed', pay: '', delete: 'draft>draft',
  },
  invoice: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled', void: 'confirmed>voided', fulfill: '',
    close: 'confirmed>closed fulfilled>closed', convert: '', send: 'draft>draft confirmed>confirmed',
    edit: 'draft>draft', pay: 'confirmed>confirmed fulfilled>fulfilled closed>closed', delete: 'draft>draft',
  },
  late_fee_invoice: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled', void: 'confirmed>voided', fulfill: '',
    close: 'confirmed>closed fulfilled>closed', convert: '', send: 'draft>draft confirmed>confirmed',
    edit: 'draft>draft', pay: 'confirmed>confirmed fulfilled>fulfilled closed>closed', delete: 'draft>draft',
  },
  return: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled confirmed>cancelled', void: 'confirmed>voided',
    fulfill: 'confirmed>fulfilled', close: 'confirmed>closed fulfilled>closed', convert: '',
    send: 'draft>draft confirmed>confirmed', edit: 'draft>draft', pay: '', delete: 'draft>draft',
  },
  purchase_order: {
    confirm: 'draft>confirmed', cancel: 'draft>cancelled confirmed>cancelled', void: 'confirmed>voided',
    fulfill: 'confirmed>fulfilled', close: 'confirmed>closed fulfilled>closed', convert: '',
    send: 'draft>draft confirmed>confirmed', edit: 'draft>draft', pay: '', delete: 'draft>draft',
  },
};

describe('order transitions table', () => {
  const statuses: OrderStatus[] = ['draft', 'confirmed', 'fulfilled', 'closed', 'cancelled', 'voided'];
  it.each(Object.keys(MOVES) as DocumentType[])('leads a %s where the table written above says', (type) => {
    for (const [action, moves] of Object.entries(MOVES[type]) as [OrderAction, string][]) {
      const allowed = new Map(
        moves
          .split(' ')
          .filter(Boolean)
          .map((m) => m.split('>') as [string, string]),
      );
      const outcome = (status: OrderStatus) => {
        try {
          return orderTransition(action, state(type, status));
        } catch (error) {
          return (error as SalesError).code;
        }
      };
      expect(statuses.map((status) => [action, status, outcome(status)])).toEqual(
        statuses.map((status) => [action, status, allowed.get(status) ?? 'invalid_state']),
      );
      expect(orderAllowedFrom(action, state(type, 'draft'))).toEqual([...allowed.keys()]);
    }
  });

  it('words the refusals as before', () => {
    expect(() => orderTransition('fulfill', state('quote', 'confirmed'))).toThrow(
      "A quote cannot be fulfilled; its order_status is 'confirmed'.",
    );
    expect(() => orderTransition('close', state('sales_order', 'draft'))).toThrow(
      "This sales_order has order_status 'draft'; it can be closed only when 'confirmed' or 'fulfilled'.",
    );
  });
});

describe('issued invoices', () => {
  it('counts confirmed, fulfilled and closed invoices as issued, drafts and cancelled or voided ones not', () => {
    expect(
      (['draft', 'confirmed', 'fulfilled', 'closed', 'cancelled', 'voided'] as const).filter(isIssuedStatus),
    ).toEqual(['confirmed', 'fulfilled', 'closed']);
  });
});

describe('purchasing companions', () => {
  it('pairs the order events of purchase orders with the purchasing family, and nothing else', () => {
    expect(purchasingCompanion('purchase_order', 'order.created')).toBe('purchasing.purchase_order.created');
    expect(purchasingCompanion('purchase_order', 'order.line.removed')).toBe(
      'purchasing.purchase_order.updated',
    );
    expect(purchasingCompanion('purchase_order', 'order.voided')).toBe('purchasing.purchase_order.cancelled');
    expect(purchasingCompanion('purchase_order', 'order.deleted')).toBeNull();
    expect(purchasingCompanion('sales_order', 'order.created')).toBeNull();
  });
});

describe('payment status', () => {
  it('follows the net amount paid', () => {
    expect(paymentStatusOf(money(100), money(0), money(0))).toBe('unpaid');
    expect(paymentStatusOf(money(100), money(40), money(0))).toBe('partially_paid');
    expect(paymentStatusOf(money(100), money(100), money(0))).toBe('paid');
    expect(paymentStatusOf(money(100), money(60), money(40))).toBe('partially_paid');
    expect(paymentStatusOf(money(100), money(0), money(100))).toBe('refunded');
    expect(paymentStatusOf(money(0), money(0), money(0))).toBe('unpaid');
    // A credit memo takes its amount off what is owed: paid in full again once paid drops alike.
    expect(paymentStatusOf(money(100), money(60), money(40), money(40))).toBe('paid');
    expect(paymentStatusOf(money(100), money(0), money(0), money(100))).toBe('refunded');
    // A credit memo on an unpaid invoice leaves it unpaid while something is due.
    expect(paymentStatusOf(money(100), money(0), money(0), money(40))).toBe('unpaid');
  });

  it('has nothing due on cancelled or voided documents and never a negative amount', () => {
    expect(amountDueOf('confirmed', money(100), money(30)).toString()).toBe('70');
    expect(amountDueOf('confirmed', money(100), money(10), money(40)).toString()).toBe('50');
    expect(amountDueOf('voided', money(100), money(0)).toString()).toBe('0');
    expect(amountDueOf('confirmed', money(100), money(130)).toString()).toBe('0');
  });
});

describe('revisions', () => {
  const sent = new Date('2026-01-01T00:00:00Z');
  const later = new Date('2026-01-02T00:00:00Z');
  it.each([
    ['a confirmed order once sent', editRevises, 'confirmed', sent, null, null, true],
    ['a confirmed order not sent', editRevises, 'confirmed', null, null, null, false],
    ['a draft', editRevises, 'draft', sent, null, null, false],
    ['a revision after sending', isRevisionPending, 'confirmed', sent, later, null, true],
    ['an acknowledged revision', isRevisionPending, 'confirmed', sent, sent, later, false],
    ['a revision after the acknowledgement', isRevisionPending, 'confirmed', sent, later, sent, true],
  ] as const)(
    'revises confirmed orders once sent, until acknowledged: %s',
    (_case, rule, orderStatus, sentToCustomerAt, revisedAt, revisionAcknowledgedAt, expected) => {
      expect(rule({ orderStatus, sentToCustomerAt, revisedAt, revisionAcknowledgedAt })).toBe(expected);
    },
  );

  it.each([
    ['quote', 'confirmed', null, 'order_not_confirmed'],
    ['sales_order', 'draft', null, 'order_not_confirmed'],
    ['sales_order', 'confirmed', later, 'revision_unacknowledged'],
    ['sales_order', 'confirmed', null, undefined],
  ] as const)(
    'gates fulfillment of a %s in %s (revised at %s): %s',
    (documentType, orderStatus, revisedAt, code) => {
      const order = {
        id: 'o',
        sentToCustomerAt: sent,
        revisionAcknowledgedAt: null,
        documentType,
        orderStatus,
        revisedAt,
      };
      expect(codeOf(() => assertReadyForFulfillment(order))).toBe(code);
    },
  );
});

describe('order totals', () => {
  it('computes a line exactly: discount percent then amount, tax on the rest', () => {
    const line = lineAmounts({
      quantity: '1.5',
      unitPrice: '19.99',
      discountPercent: 10,
      discountAmount: '1',
      taxRate: '8.25',
    });
    expect(line.subtotal.toString()).toBe('29.985');
    expect(line.discountTotal.toString()).toBe('3.9985');
    expect(line.taxTotal.toString()).toBe('2.1439');
    expect(line.total.toString()).toBe('28.1304');
  });

  it('never discounts more than the line', () => {
    const line = lineAmounts({ quantity: 1, unitPrice: 5, discountAmount: 9 });
    expect(line.discountTotal.toString()).toBe('5');
    expect(line.total.toString()).toBe('0');
  });

  it('adds 1,000 lines of 0.1 to exactly 100 (no float drift)', () => {
    const lines = Array.from({ length: 1000 }, () => lineAmounts({ quantity: 1, unitPrice: 0.1 }));
    const totals = orderTotals(lines);
    expect(totals.subtotal.toFixed(2)).toBe('100.00');
    expect(totals.total.toFixed(2)).toBe('100.00');
    // The same sum in floats drifts, which is why amounts never pass through them.
    expect(Array.from({ length: 1000 }, () => 0.1).reduce((a, b) => a + b, 0)).not.toBe(100);
  });

  it('rounds currency totals half-up to 2 decimals and keeps total = subtotal - discount + tax', () => {
    const totals = orderTotals([
      lineAmounts({ quantity: 1, unitPrice: '0.005' }),
      lineAmounts({ quantity: 1, unitPrice: '10', taxRate: '7.5' }),
    ]);
    expect(totals.subtotal.toString()).toBe('10.01');
    expect(totals.taxTotal.toString()).toBe('0.75');
    expect(totals.total.toString()).toBe('10.76');
  });
});

describe('order updates', () => {
  it('lets notes and metadata change on any order but a cancelled or voided one', () => {
    expect(() => assertUpdate(state('invoice', 'confirmed'), false)).not.toThrow();
    expect(() => assertUpdate(state('sales_order', 'closed'), false)).not.toThrow();
    expect(codeOf(() => assertUpdate(state('sales_order', 'cancelled'), false))).toBe('invalid_state');
    expect(codeOf(() => assertUpdate(state('invoice', 'voided'), false))).toBe('invalid_state');
  });

  it('holds a change of lines or account to the edit rule', () => {
    expect(() => assertUpdate(state('sales_order', 'confirmed'), true)).not.toThrow();
    expect(codeOf(() => assertUpdate(state('invoice', 'confirmed'), true))).toBe('invalid_state');
    expect(codeOf(() => assertUpdate(state('sales_order', 'closed'), true))).toBe('invalid_state');
  });

  it('changes the account of a draft only', () => {
    expect(() => assertAccountChange('draft')).not.toThrow();
    for (const status of ['confirmed', 'fulfilled', 'closed', 'cancelled', 'voided'] as const) {
      expect(codeOf(() => assertAccountChange(status))).toBe('invalid_state');
    }
  });

  it('moves commitments with the lines of a confirmed order only', () => {
    expect(linesHoldCommitments('confirmed')).toBe(true);
    expect(linesHoldCommitments('draft')).toBe(false);
    expect(linesHoldCommitments('fulfilled')).toBe(false);
  });

  it('reverses the posting of an invoice that left draft, of no other document', () => {
    expect(isPostedInvoice('invoice', 'confirmed')).toBe(true);
    expect(isPostedInvoice('late_fee_invoice', 'confirmed')).toBe(true);
    expect(isPostedInvoice('invoice', 'draft')).toBe(false);
    expect(isPostedInvoice('sales_order', 'confirmed')).toBe(false);
  });
});

describe('the line cap', () => {
  it('takes lines up to the cap and refuses one more, naming the param', () => {
    expect(MAX_ORDER_LINES).toBe(1000);
    expect(() => assertLineCapacity(0, 1000)).not.toThrow();
    expect(() => assertLineCapacity(999, 1)).not.toThrow();
    for (const [held, adding] of [
      [1000, 1],
      [0, 1001],
      [500, 501],
    ]) {
      let caught: unknown;
      try {
        assertLineCapacity(held, adding);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'parameter_invalid', param: 'lines' });
    }
  });
});
