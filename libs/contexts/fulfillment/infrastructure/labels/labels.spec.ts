import { crc32, inflateSync } from 'node:zlib';
import { addressLines, LabelContent } from '../../domain/label';
import { code128Bars } from './barcode';
import { PNG_HEIGHT, PNG_LAYOUT, PNG_SIGNATURE, PNG_WIDTH } from './png-label';
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

/** Dark pixels inside the border (x 12..387) of rows top..bottom. */
const inkIn = (rows: Buffer[], band: { top: number; bottom: number }) =>
  rows
    .slice(band.top, band.bottom)
    .reduce((n, row) => n + [...row.subarray(12, PNG_WIDTH - 12)].filter((v) => v < 128).length, 0);

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
      'USPS PRIORITY',
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

  it('writes a valid 400 x 600 grayscale PNG whose text bands carry ink that follows the text', () => {
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
      'USPS PRIORITY',
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
});
