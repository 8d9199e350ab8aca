import { FontLib } from 'bwip-js';
import { crc32, deflateSync } from 'node:zlib';
import { LabelContent, packageLine, printable, serviceLine } from '../../domain/label';
import { code128Bars } from './barcode';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Thermal label printers print 203 dpi; the label is 4 x 6 inch at that resolution. */
export const PNG_DPI = 203;
export const PNG_WIDTH = 4 * PNG_DPI; // 812
export const PNG_HEIGHT = 6 * PNG_DPI; // 1218

/** The layout is drawn on a 400 x 600 grid (a 100 dpi inch) scaled to the label's dpi. */
const SCALE = PNG_DPI / 100;
const px = (v: number) => Math.round(v * SCALE);

/** Quiet zone each side of the barcode, in modules: Code 128 needs at least 10; 12 leaves a margin. */
export const PNG_QUIET_ZONE_MODULES = 12;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit grayscale canvas, white, drawn on in black. */
class Canvas {
  readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = Buffer.alloc(width * height, 0xff);
  }

  fill(x0: number, y0: number, w: number, h: number): void {
    for (let y = y0; y < y0 + h; y++) this.pixels.fill(0x00, y * this.width + x0, y * this.width + x0 + w);
  }

  /**
   * `text` in bwip-js's OCR-B font, `size` pixels high, its baseline at `baseline`; glyphs are
   * anti-aliased coverage, and a line is cut where it would cross `maxX`.
   */
  text(x: number, baseline: number, size: number, text: string, maxX = this.width - 16): void {
    const font = FontLib.lookup('OCR-B');
    let pen = x;
    for (const ch of printable(text)) {
      const g = FontLib.getglyph(font, ch.charCodeAt(0), size, size);
      if (pen + g.advance > maxX) return;
      for (let gy = 0; gy < g.height; gy++) {
        for (let gx = 0; gx < g.width; gx++) {
          const coverage = g.bytes[g.offset + gy * g.width + gx];
          const px = pen + g.left + gx;
          const py = baseline - g.top + gy;
          if (!coverage || px < 0 || py < 0 || px >= this.width || py >= this.height) continue;
          const i = py * this.width + px;
          this.pixels[i] = Math.min(this.pixels[i], 255 - coverage);
        }
      }
      pen += g.advance;
    }
  }

  /** The canvas as a PNG: IHDR (grayscale, 8 bits), one IDAT (filter None per row), IEND. */
  png(): Buffer {
    const raw = Buffer.alloc((this.width + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * (this.width + 1)] = 0; // filter type None
      this.pixels.copy(raw, y * (this.width + 1) + 1, y * this.width, (y + 1) * this.width);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 0; // grayscale; compression, filter and interlace methods 0
    return Buffer.concat([
      PNG_SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

/**
 * Where the PNG label draws each part (pixel rows, top to bottom): the tests find the text by
 * these bands.
 */
export const PNG_LAYOUT = {
  service: { top: px(20), bottom: px(50) },
  package: { top: px(54), bottom: px(72) },
  shipFrom: { top: px(84), bottom: px(190) },
  shipTo: { top: px(200), bottom: px(370) },
  barcode: { top: px(390), bottom: px(520) },
  tracking: { top: px(528), bottom: px(560) },
} as const;

/** The frame's line width and inner edges (pixel columns). */
const FRAME = { outer: px(8), line: px(3) };
export const PNG_FRAME_INNER = {
  left: FRAME.outer + FRAME.line,
  right: PNG_WIDTH - FRAME.outer - FRAME.line,
} as const;

/**
 * The module width (whole pixels, at most 4) and left edge of a Code 128 symbol of `modules`
 * modules, centred between the frame's inner edges with PNG_QUIET_ZONE_MODULES of white each side.
 */
export function pngBarcodePlacement(modules: number): { module: number; left: number } {
  const room = PNG_FRAME_INNER.right - PNG_FRAME_INNER.left;
  const module = Math.max(1, Math.min(4, Math.floor(room / (modules + 2 * PNG_QUIET_ZONE_MODULES))));
  return { module, left: Math.floor((PNG_WIDTH - modules * module) / 2) };
}

/**
 * A 4 x 6 inch label at 203 dpi (812 x 1218), 8-bit grayscale: a border; the carrier's service
 * by its display name; package number and weight; SHIP FROM and SHIP TO blocks; the tracking
 * number as a Code 128 barcode (bwip-js's encoder, whole-pixel modules, a quiet zone of at
 * least 10 modules to the frame) with the number printed under it. Text is drawn with the OCR-B
 * font bwip-js ships; deflate and CRC-32 from node:zlib.
 */
export function pngLabel(content: LabelContent): Buffer {
  const canvas = new Canvas(PNG_WIDTH, PNG_HEIGHT);
  const { width, height } = canvas;
  const { outer, line } = FRAME;
  canvas.fill(outer, outer, width - 2 * outer, line);
  canvas.fill(outer, height - outer - line, width - 2 * outer, line);
  canvas.fill(outer, outer, line, height - 2 * outer);
  canvas.fill(width - outer - line, outer, line, height - 2 * outer);
  const rule = (y: number) => canvas.fill(outer + line, px(y), width - 2 * (outer + line), px(2));
  const text = (x: number, baseline: number, size: number, s: string) =>
    canvas.text(px(x), px(baseline), px(size), s, width - px(16));
  text(20, 46, 28, serviceLine(content));
  text(20, 70, 14, packageLine(content));
  rule(78);
  text(20, 100, 12, 'SHIP FROM:');
  content.shipFrom.slice(0, 6).forEach((l, i) => text(20, 118 + i * 14, 13, l));
  rule(194);
  text(20, 218, 14, 'SHIP TO:');
  content.shipTo.slice(0, 6).forEach((l, i) => text(30, 244 + i * 22, 19, l));
  rule(378);
  const { bars, modules } = code128Bars(content.trackingNumber);
  const { module, left } = pngBarcodePlacement(modules);
  const barTop = PNG_LAYOUT.barcode.top;
  for (const [x, w] of bars) canvas.fill(left + x * module, barTop, w * module, px(130));
  canvas.text(Math.max(px(20), left), px(552), px(18), content.trackingNumber);
  text(20, 580, 11, 'TRACKING NUMBER');
  return canvas.png();
}
