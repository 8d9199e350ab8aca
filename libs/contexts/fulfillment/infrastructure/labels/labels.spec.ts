import { inflateSync } from 'node:zlib';
import { CODE128_PATTERNS, code128Values, code128Widths } from './code128';
import { PNG_SIGNATURE } from './png-label';
import { renderLabel } from './render-label';

const content = {
  trackingNumber: '9400111899223197428490',
  carrier: 'usps',
  service: 'priority',
  packageNumber: 'QA1-PKG-000001',
  weightLb: '2.5',
  shipTo: ['QA Customer Inc', 'Order 01a2'],
};

describe('Code 128', () => {
  it('has 107 distinct symbols of 11 modules (the stop symbol 13)', () => {
    expect(CODE128_PATTERNS).toHaveLength(107);
    expect(new Set(CODE128_PATTERNS).size).toBe(107);
    CODE128_PATTERNS.forEach((p, i) =>
      expect([...p].reduce((s, d) => s + Number(d), 0)).toBe(i === 106 ? 13 : 11),
    );
  });

  it('encodes with start B, the modulo-103 check symbol and stop', () => {
    // Published worked example (barcoderesource.com, "Calculation of Code128 Check Character",
    // Code 128B): "abcdef" has values 65..70, weighted sum 1435, plus start B 104 = 1539, and
    // 1539 % 103 = 97.
    expect(code128Values('abcdef')).toEqual([104, 65, 66, 67, 68, 69, 70, 97, 106]);
    // Wikipedia's worked example "PJJ123C" (set A: start 103, sum 878, check 54); these letters and
    // digits have the same values in set B, whose start is 104, so the sum is 879 and the check 55.
    expect(code128Values('PJJ123C')).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55, 106]);
    // One data symbol: start, data, check, stop of 6 bar/space widths each, the stop's 7.
    expect(code128Widths('A')).toHaveLength(6 * 3 + 7);
  });
});

describe('label files', () => {
  it('writes a PDF with one page, a barcode and an exact cross-reference table', () => {
    const pdf = renderLabel('PDF', content).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf).toContain('/Type /Page ');
    expect(pdf).toContain(' re f');
    expect(pdf).toContain(content.trackingNumber);
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/(\d{10}) 00000 n/g)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(0);
    offsets.forEach((o, i) => expect(pdf.slice(o).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('writes a PNG that decodes to 400 x 600 grayscale rows with dark bars', () => {
    const png = renderLabel('PNG', content);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.readUInt32BE(16)).toBe(400);
    expect(png.readUInt32BE(20)).toBe(600);
    let offset = 8;
    const idat: Buffer[] = [];
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const type = png.subarray(offset + 4, offset + 8).toString('latin1');
      if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
      offset += 12 + length;
    }
    const raw = inflateSync(Buffer.concat(idat));
    expect(raw.length).toBe(401 * 600);
    const row = raw.subarray(450 * 401 + 1, 451 * 401);
    expect(row.includes(0x00)).toBe(true);
    expect(row.includes(0xff)).toBe(true);
  });

  it('writes ZPL II between ^XA and ^XZ with a ^BC barcode of the tracking number', () => {
    const zpl = renderLabel('ZPLII', content).toString('latin1').trim();
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.endsWith('^XZ')).toBe(true);
    expect(zpl).toMatch(new RegExp(`\\^BCN,\\d+,Y,N,N\\^FD${content.trackingNumber}\\^FS`));
  });
});
