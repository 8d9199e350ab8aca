import { LabelContent, packageLine, printable, serviceLine } from '../../domain/label';
import { code128Bars } from './barcode';

const escapeText = (s: string) => printable(s).replace(/([\\()])/g, '\\$1');

/** The page's width in points (4 in) and the inner edges of its frame (a 2 pt line at x = 10 and 278). */
const PAGE_WIDTH = 288;
export const PDF_FRAME_INNER = { left: 11, right: 277 } as const;

/** Quiet zone each side of the barcode, in modules: Code 128 needs at least 10; 12 leaves a margin. */
export const QUIET_ZONE_MODULES = 12;

/**
 * The module width (points, at most 2) and left edge of a Code 128 symbol of `modules` modules,
 * centred between the frame's inner edges with QUIET_ZONE_MODULES of white on each side.
 */
export function pdfBarcodePlacement(modules: number): { module: number; left: number } {
  const room = PDF_FRAME_INNER.right - PDF_FRAME_INNER.left;
  const module = Math.min(2, room / (modules + 2 * QUIET_ZONE_MODULES));
  return { module, left: (PAGE_WIDTH - modules * module) / 2 };
}

/**
 * A 4 x 6 inch, one-page PDF 1.4: carrier and service, package number and weight, the SHIP FROM
 * and SHIP TO blocks in Helvetica (one text object per line, so each line is a literal string of
 * the page's content stream), the tracking number as a Code 128 barcode (bwip-js's encoder)
 * drawn as filled rectangles with a quiet zone of at least 10 modules between the bars and the
 * frame, and the number printed under it; the cross-reference table holds
 * exact offsets.
 */
export function pdfLabel(content: LabelContent): Buffer {
  const width = PAGE_WIDTH;
  const height = 432;
  const ops: string[] = ['0 0 0 rg', '2 w', '10 10 268 412 re S'];
  const text = (x: number, y: number, size: number, s: string) =>
    ops.push(`BT /F1 ${size} Tf ${x} ${y} Td (${escapeText(s)}) Tj ET`);
  text(20, 398, 18, serviceLine(content));
  text(20, 380, 10, packageLine(content));
  ops.push('10 372 m 278 372 l S');
  text(20, 358, 8, 'SHIP FROM:');
  content.shipFrom.slice(0, 6).forEach((line, i) => text(20, 347 - i * 10, 8, line));
  ops.push('10 284 m 278 284 l S');
  text(20, 270, 10, 'SHIP TO:');
  content.shipTo.slice(0, 6).forEach((line, i) => text(30, 254 - i * 14, 12, line));
  ops.push('10 166 m 278 166 l S');
  const { bars, modules } = code128Bars(content.trackingNumber);
  const { module, left } = pdfBarcodePlacement(modules);
  for (const [x, w] of bars)
    ops.push(`${(left + x * module).toFixed(2)} 80 ${(w * module).toFixed(2)} 76 re f`);
  text(Math.max(20, left), 62, 12, content.trackingNumber);
  text(20, 30, 9, 'TRACKING NUMBER');
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
