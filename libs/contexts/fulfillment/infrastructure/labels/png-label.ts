import { FontLib } from 'bwip-js';
import { crc32, deflateSync } from 'node:zlib';
import { LabelContent, packageLine, printable, serviceLine } from '../../domain/label';
import { code128Bars } from './barcode';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The label's size: 4 x 6 inch at 100 dpi. */
export const PNG_WIDTH = 400;
export const PNG_HEIGHT = 600;

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
  service: { top: 20, bottom: 50 },
  package: { top: 54, bottom: 72 },
  shipFrom: { top: 84, bottom: 190 },
  shipTo: { top: 200, bottom: 370 },
  barcode: { top: 390, bottom: 520 },
  tracking: { top: 528, bottom: 560 },
} as const;

/**
 * A 4 x 6 inch label at 100 dpi (400 x 600), 8-bit grayscale: a border; carrier and service;
 * package number and weight; SHIP FROM and SHIP TO blocks; the tracking number as a Code 128
 * barcode (bwip-js's encoder, 2-pixel modules where it fits) with the number printed under it.
 * Text is drawn with the OCR-B font bwip-js ships; deflate and CRC-32 from node:zlib.
 */
export function pngLabel(content: LabelContent): Buffer {
  const canvas = new Canvas(PNG_WIDTH, PNG_HEIGHT);
  const { width, height } = canvas;
  canvas.fill(8, 8, width - 16, 3);
  canvas.fill(8, height - 11, width - 16, 3);
  canvas.fill(8, 8, 3, height - 16);
  canvas.fill(width - 11, 8, 3, height - 16);
  canvas.text(20, 46, 28, serviceLine(content));
  canvas.text(20, 70, 14, packageLine(content));
  canvas.fill(11, 78, width - 22, 2);
  canvas.text(20, 100, 12, 'SHIP FROM:');
  content.shipFrom.slice(0, 6).forEach((line, i) => canvas.text(20, 118 + i * 14, 13, line));
  canvas.fill(11, 194, width - 22, 2);
  canvas.text(20, 218, 14, 'SHIP TO:');
  content.shipTo.slice(0, 6).forEach((line, i) => canvas.text(30, 244 + i * 22, 19, line));
  canvas.fill(11, 378, width - 22, 2);
  const { bars, modules } = code128Bars(content.trackingNumber);
  const module = Math.max(1, Math.min(2, Math.floor((width - 60) / modules)));
  const left = Math.floor((width - modules * module) / 2);
  for (const [x, w] of bars) canvas.fill(left + x * module, PNG_LAYOUT.barcode.top, w * module, 130);
  canvas.text(Math.max(20, left), 552, 18, content.trackingNumber);
  canvas.text(20, 580, 11, 'TRACKING NUMBER');
  return canvas.png();
}
