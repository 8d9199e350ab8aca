import { crc32, inflateSync } from 'node:zlib';
import { addressLines, LabelContent } from '../../domain/label';
import { code128Bars } from './barcode';
import { negotiateLabelType } from '../../domain/label';
import { PDF_FRAME_INNER, pdfBarcodePlacement } from './pdf-label';
import {
  PNG_FRAME_INNER,
  PNG_HEIGHT,
  PNG_LAYOUT,
  PNG_SIGNATURE,
  PNG_WIDTH,
  pngBarcodePlacement,
} from './png-label';
import { renderLabel } from './render-label';

const content: LabelContent = {
  trackingNumber: '9400111899223197428490',
  carrier: 'usps',
  service: 'priority',
  packageNumber: 'QA1-PKG-000001',
  weightLb: '2.5',
  shipFrom: addressLines('Main Warehouse', {
    line1: '1 Dock Rd',
    line2: null,
    city: 'Reno',
    region: 'NV',
    postal_code: '89501',
    country: 'US',
  }),
  shipTo: addressLines('QA Customer Inc', {
    line1: '500 Market St',
    line2: 'Suite 4 (rear)',
    city: 'San Francisco',
    region: 'CA',
    postal_code: '94105',
    country: 'US',
  }),
};

/** The chunks of a PNG, each with its CRC checked against node:zlib's crc32. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const chunks: { type: string; data: Buffer }[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const typed = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString('latin1'), data: typed.subarray(4) });
    offset += 12 + length;
  }
  return chunks;
}

/** The decoded grayscale rows (filter byte dropped) of one of our PNG labels. */
function pngRows(png: Buffer): Buffer[] {
  const chunks = pngChunks(png);
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const ihdr = chunks[0].data;
  expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([
    PNG_WIDTH,
    PNG_HEIGHT,
    8,
    0,
  ]);
  const raw = inflateSync(chunks[1].data);
  expect(raw.length).toBe((PNG_WIDTH + 1) * PNG_HEIGHT);
  return Array.from({ length: PNG_HEIGHT }, (_, y) => {
    expect(raw[y * (PNG_WIDTH + 1)]).toBe(0);
    return raw.subarray(y * (PNG_WIDTH + 1) + 1, (y + 1) * (PNG_WIDTH + 1));
  });
}

/** Dark pixels inside the border of rows top..bottom. */
const inkIn = (rows: Buffer[], band: { top: number; bottom: number }) =>
  rows
    .slice(band.top, band.bottom)
    .reduce(
      (n, row) =>
        n + [...row.subarray(PNG_FRAME_INNER.left, PNG_FRAME_INNER.right)].filter((v) => v < 128).length,
      0,
    );

describe('Code 128 (bwip-js)', () => {
  it('encodes digits in code set C: start C, two digits a symbol, check and stop', () => {
    // 22 digits: start + 11 data + check = 13 symbols of 11 modules, stop 13 modules.
    const { bars, modules } = code128Bars(content.trackingNumber);
    expect(modules).toBe(13 * 11 + 13);
    expect(bars).toHaveLength(13 * 3 + 4);
    // Start C is 211232: a bar of 2 modules, a space of 1, a bar of 1, ...
    expect(bars.slice(0, 3)).toEqual([
      [0, 2],
      [3, 1],
      [6, 3],
    ]);
  });
});

describe('label files', () => {
  it('writes a PDF with one page, every text line, a barcode and an exact cross-reference table', () => {
    const pdf = renderLabel('PDF', content).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf).toContain('/Type /Page ');
    expect(pdf).toContain(' re f');
    for (const line of [
      'USPS Priority Mail',
      'Package QA1-PKG-000001  Weight 2.5 lb',
      'SHIP FROM:',
      'Main Warehouse',
      '1 Dock Rd',
      'Reno, NV 89501',
      'SHIP TO:',
      'QA Customer Inc',
      'Suite 4 \\(rear\\)',
      'San Francisco, CA 94105',
      content.trackingNumber,
    ])
      expect(pdf).toContain(`(${line}) Tj`);
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/(\d{10}) 00000 n/g)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((o, i) => expect(pdf.slice(o).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('writes a valid 812 x 1218 (203 dpi) grayscale PNG whose text bands carry ink that follows the text', () => {
    const rows = pngRows(renderLabel('PNG', content));
    for (const band of Object.values(PNG_LAYOUT)) expect(inkIn(rows, band)).toBeGreaterThan(50);
    // The barcode band: dark and light columns across a row.
    const bar = rows[PNG_LAYOUT.barcode.top + 10];
    expect(bar.includes(0x00)).toBe(true);
    expect(bar.includes(0xff)).toBe(true);
    // Without the address lines the address bands hold only their headings' ink.
    const bare = pngRows(renderLabel('PNG', { ...content, shipFrom: [], shipTo: [] }));
    expect(inkIn(bare, PNG_LAYOUT.shipTo)).toBeLessThan(inkIn(rows, PNG_LAYOUT.shipTo) / 4);
    expect(inkIn(bare, PNG_LAYOUT.shipFrom)).toBeLessThan(inkIn(rows, PNG_LAYOUT.shipFrom) / 4);
    // Another city changes the ship-to band's pixels and nothing above it.
    const moved = pngRows(
      renderLabel('PNG', {
        ...content,
        shipTo: content.shipTo.map((l) => l.replace('San Francisco', 'Oakland')),
      }),
    );
    const differs = (y: number) => !moved[y].equals(rows[y]);
    expect(rows.slice(0, PNG_LAYOUT.shipTo.top).some((_, y) => differs(y))).toBe(false);
    expect(
      rows.some((_, y) => y >= PNG_LAYOUT.shipTo.top && y < PNG_LAYOUT.shipTo.bottom && differs(y)),
    ).toBe(true);
  });

  it('writes ZPL II between ^XA and ^XZ with a field per line and a ^BC barcode of the tracking number', () => {
    const zpl = renderLabel('ZPLII', content).toString('latin1').trim();
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.endsWith('^XZ')).toBe(true);
    const fields = [...zpl.matchAll(/\^FD([^^]*)\^FS/g)].map((m) => m[1]);
    expect(fields).toEqual([
      'USPS Priority Mail',
      'Package QA1-PKG-000001  Weight 2.5 lb',
      'SHIP FROM:',
      ...content.shipFrom,
      'SHIP TO:',
      ...content.shipTo,
      content.trackingNumber,
      `TRACKING # ${content.trackingNumber}`,
    ]);
    expect(zpl).toContain(`^BCN,250,Y,N,N,A^FD${content.trackingNumber}^FS`);
  });

  // Code 128 needs at least 10 modules of white each side of the bars; a frame line closer than
  // that makes scanners miss the symbol. Tracking numbers of every carrier's length and set.
  it.each(['9400111899223197428490', '1Z999AA10123456784', '794698745123', 'SB1234567890ABCDEFGH'])(
    'leaves a quiet zone of at least 10 modules between the barcode of %s and the frame (PDF and PNG)',
    (tracking) => {
      const { modules } = code128Bars(tracking);
      const pdf = pdfBarcodePlacement(modules);
      expect((pdf.left - PDF_FRAME_INNER.left) / pdf.module).toBeGreaterThanOrEqual(10);
      expect((PDF_FRAME_INNER.right - (pdf.left + modules * pdf.module)) / pdf.module).toBeGreaterThanOrEqual(
        10,
      );
      const png = pngBarcodePlacement(modules);
      expect(Number.isInteger(png.module) && png.module >= 2).toBe(true);
      expect((png.left - PNG_FRAME_INNER.left) / png.module).toBeGreaterThanOrEqual(10);
      expect((PNG_FRAME_INNER.right - (png.left + modules * png.module)) / png.module).toBeGreaterThanOrEqual(
        10,
      );
      // The PNG row through the bars: white from the frame to the first bar and after the last.
      const row = pngRows(renderLabel('PNG', { ...content, trackingNumber: tracking }))[
        PNG_LAYOUT.barcode.top + 5
      ];
      const dark = [...row.subarray(PNG_FRAME_INNER.left, PNG_FRAME_INNER.right)]
        .map((v, i) => (v < 128 ? i + PNG_FRAME_INNER.left : -1))
        .filter((i) => i >= 0);
      expect(dark[0] - PNG_FRAME_INNER.left).toBeGreaterThanOrEqual(10 * png.module);
      expect(PNG_FRAME_INNER.right - 1 - dark[dark.length - 1]).toBeGreaterThanOrEqual(10 * png.module);
    },
  );

  it('prints the service by its display name, not its code', () => {
    const heading = (service: string, carrier = 'usps') =>
      [
        ...renderLabel('PDF', { ...content, carrier, service })
          .toString('latin1')
          .matchAll(/\((.*)\) Tj/g),
      ][0][1];
    expect(heading('ground_advantage')).toBe('USPS Ground Advantage');
    expect(heading('2nd_day_air', 'ups')).toBe('UPS 2nd Day Air');
    expect(heading('2_day', 'fedex')).toBe('FedEx 2Day');
    // A service outside the table (a real provider's) reads as its code in words.
    expect(heading('media_mail')).toBe('USPS Media Mail');
  });
});

describe('Accept on a label download', () => {
  const drawn = ['PDF', 'PNG', 'ZPLII'] as const;
  it.each([
    [undefined, 'PDF'],
    ['*/*', 'PDF'],
    ['application/json', 'PDF'],
    ['image/png', 'PNG'],
    ['image/*', 'PNG'],
    ['application/zpl, image/png', 'ZPLII'],
    ['application/zpl;q=0.5, image/png', 'PNG'],
    ['image/png;q=0, */*', 'PDF'],
    ['text/html, image/gif', 'PDF'],
  ])('a drawn label bought as PDF, Accept %s -> %s', (accept, type) => {
    expect(negotiateLabelType(accept, drawn)).toBe(type);
  });

  it('a carrier file is only its bought type: another label type is refused (null -> 406)', () => {
    expect(negotiateLabelType('image/png', ['PDF'])).toBeNull();
    expect(negotiateLabelType('image/png, application/pdf;q=0.1', ['PDF'])).toBe('PDF');
    expect(negotiateLabelType('*/*', ['PDF'])).toBe('PDF');
  });
});
