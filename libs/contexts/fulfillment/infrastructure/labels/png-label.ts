import { deflateSync } from 'node:zlib';
import { code128Bars } from './code128';
import { LabelContent } from '../../domain/label';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A 4 x 6 inch label at 100 dpi (400 x 600), 8-bit grayscale: a border and the tracking number
 * as a Code 128 barcode (2-pixel modules, quiet zones on both sides), deflated with node:zlib.
 */
export function pngLabel(content: LabelContent): Buffer {
  const width = 400;
  const height = 600;
  const pixels = Buffer.alloc(width * height, 0xff);
  const fill = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) pixels.fill(0x00, y * width + x0, y * width + x0 + w);
  };
  fill(8, 8, width - 16, 3);
  fill(8, height - 11, width - 16, 3);
  fill(8, 8, 3, height - 16);
  fill(width - 11, 8, 3, height - 16);
  const { bars, modules } = code128Bars(content.trackingNumber);
  const module = Math.max(1, Math.min(2, Math.floor((width - 60) / modules)));
  const left = Math.floor((width - modules * module) / 2);
  for (const [x, w] of bars) fill(left + x * module, 380, w * module, 150);
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter type None
    pixels.copy(raw, y * (width + 1) + 1, y * width, (y + 1) * width);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  const text = Buffer.from(`Tracking\0${content.trackingNumber}`, 'latin1');
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('tEXt', text),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
