import { money } from '#platform/domain/money';
import { NetAndTax } from '../../domain/revenue-recognition';
import { InvoiceRecognition } from '../revenue-recognition.service';
import { invoiceEntryLines } from './invoice-order';

const nt = (net: number, tax: number): NetAndTax => ({ net: money(net), tax: money(tax) });
const split = (parts: Partial<InvoiceRecognition>): InvoiceRecognition => ({
  recognized: nt(0, 0),
  billed: nt(0, 0),
  unbilled: nt(0, 0),
  direct: nt(0, 0),
  settledByChannel: nt(0, 0),
  ...parts,
});
/** Each line as [target, side, amount], amounts to 4 places. */
const shape = (lines: ReturnType<typeof invoiceEntryLines>) =>
  lines.map((l) => {
    const line = l as unknown as {
      role?: string;
      debit?: { toFixed(n: number): string };
      credit?: { toFixed(n: number): string };
    };
    return [line.role, line.debit ? 'debit' : 'credit', (line.debit ?? line.credit)!.toFixed(4)];
  });

describe('invoiceEntryLines', () => {
  it('an invoice of units nothing shipped yet recognises them: receivables 110 against revenue 100 and tax 10', () => {
    const lines = invoiceEntryLines(split({ billed: nt(100, 10), recognized: nt(100, 10) }), 'Invoice total');
    expect(shape(lines)).toEqual([
      ['receivables', 'debit', '110.0000'],
      ['revenue', 'credit', '100.0000'],
      ['tax', 'credit', '10.0000'],
    ]);
  });

  it('an invoice of units shipping recognised moves them from unbilled receivables only', () => {
    const lines = invoiceEntryLines(split({ billed: nt(100, 10) }), 'Invoice total');
    expect(shape(lines)).toEqual([
      ['receivables', 'debit', '110.0000'],
      ['unbilled_receivables', 'credit', '110.0000'],
    ]);
  });

  it("an invoice's own amounts beyond its billed units are revenue and tax of the invoice", () => {
    const lines = invoiceEntryLines(
      split({ billed: nt(50, 5), recognized: nt(20, 2), direct: nt(30, 3) }),
      'Invoice total',
    );
    // receivables 55 + 33 = 88; unbilled gives up 55 - 22 = 33; revenue 20 + 30; tax 2 + 3.
    expect(shape(lines)).toEqual([
      ['receivables', 'debit', '88.0000'],
      ['unbilled_receivables', 'credit', '33.0000'],
      ['revenue', 'credit', '50.0000'],
      ['tax', 'credit', '5.0000'],
    ]);
  });

  it("a void's negative split gives the mirror lines, credits last", () => {
    const lines = invoiceEntryLines(
      split({ billed: nt(-50, -5), recognized: nt(-20, -2), direct: nt(-30, -3) }),
      'Invoice voided',
    );
    expect(shape(lines)).toEqual([
      ['revenue', 'debit', '50.0000'],
      ['tax', 'debit', '5.0000'],
      ['unbilled_receivables', 'debit', '33.0000'],
      ['receivables', 'credit', '88.0000'],
    ]);
  });
});
