import { CsvReader, CsvRecordTooLongError, parseCsv } from './csv';
import { LinePieces, LineTooLongError } from './line-pieces';

/** Feeds `bytes` in chunks of `size` bytes; returns the pieces (the last from end()). */
function split(bytes: Buffer, size: number, pieceBytes: number, lineLimit = Infinity): string[] {
  const pieces = new LinePieces(pieceBytes, lineLimit);
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += size) {
    const piece = pieces.push(bytes.subarray(i, i + size));
    if (piece !== undefined) out.push(piece);
  }
  out.push(pieces.end());
  return out;
}

/** The line a LineTooLongError names, or null when none is thrown. */
function refusedLine(bytes: Buffer, size: number, lineLimit: number): number | null {
  try {
    split(bytes, size, 16, lineLimit);
    return null;
  } catch (error) {
    if (error instanceof LineTooLongError) return error.line;
    throw error;
  }
}

describe('LinePieces', () => {
  // Multi-byte characters (2, 3 and 4 bytes in UTF-8), CRLF, an empty line, no final line break.
  const TEXT = 'é1,"ü\nß"\r\n€ mid-line €\n\n{"k":"𝄞 clef"}\r\nlast ✓';
  const BYTES = Buffer.from(TEXT, 'utf8');

  it('gives back the exact text, in pieces of whole lines, whatever the chunk borders', () => {
    for (let size = 1; size <= BYTES.length; size++) {
      for (const pieceBytes of [1, 7, 1000]) {
        const pieces = split(BYTES, size, pieceBytes);
        expect(pieces.join('')).toBe(TEXT);
        // Every piece but the last ends with a line break, so none splits a line or a character.
        for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
        expect(pieces.join('')).not.toContain('\uFFFD');
      }
    }
  });

  it('cuts a piece once the whole lines held reach the piece size, and holds the unfinished line', () => {
    const pieces = new LinePieces(10, Infinity);
    expect(pieces.push(Buffer.from('abc\nde'))).toBeUndefined(); // 4 bytes of whole lines
    expect(pieces.push(Buffer.from('fgh'))).toBeUndefined(); // no line break
    expect(pieces.push(Buffer.from('ij\nkl\nmn'))).toBe('abc\ndefghij\nkl\n');
    expect(pieces.end()).toBe('mn');
  });

  it('decodes a character split across chunks (a 4-byte one split at every byte)', () => {
    const bytes = Buffer.from('a\n𝄞\nb', 'utf8');
    const pieces = new LinePieces(1, Infinity);
    const out = [...bytes].map((b) => pieces.push(Buffer.from([b]))).filter((p) => p !== undefined);
    out.push(pieces.end());
    expect(out).toEqual(['a\n', '𝄞\n', 'b']);
  });

  it('refuses a line over the limit naming it, as soon as its bytes pass the limit', () => {
    const text = Buffer.from('12345\n1234567890\nabcdefghijk\n', 'utf8');
    for (let size = 1; size <= text.length; size++) {
      expect(refusedLine(text, size, 11)).toBeNull();
      expect(refusedLine(text, size, 10)).toBe(3);
      expect(refusedLine(text, size, 9)).toBe(2);
    }
    // Counted in bytes, CR included: "é" is 2 bytes, so the first line is 5 bytes.
    expect(refusedLine(Buffer.from('éé\r\nab'), 1, 4)).toBe(1);
    expect(refusedLine(Buffer.from('éé\r\nab'), 1, 5)).toBeNull();
    // The unfinished last line is checked too, before the stream ends.
    const pieces = new LinePieces(16, 4);
    pieces.push(Buffer.from('ok\nabc'));
    expect(() => pieces.push(Buffer.from('de'))).toThrow(LineTooLongError);
  });

  it('splits a long single-line stream in time linear in its size', () => {
    // 16 MiB without a line break, in 64 KiB chunks: a scan of everything held per chunk looks
    // at about 2 GiB (over 2 s for 8 MiB on a 2-core machine, four times that for 16); a linear
    // one at 16 MiB (well under 0.2 s).
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pieces = new LinePieces(1024 * 1024, Infinity);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 256; i++) expect(pieces.push(chunk)).toBeUndefined();
    expect(pieces.push(Buffer.from('\n'))).toHaveLength(16 * 1024 * 1024 + 1);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(ms).toBeLessThan(2000);
  });

  it('feeds a CSV reader whole lines: a quoted cell with line breaks read the same whatever the chunk borders', () => {
    const text = 'id,note\r\n1,"first\nsecond ü\r\nthird"\n2,plain\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let size = 1; size <= bytes.length; size++) {
      const reader = new CsvReader(1024);
      const rows = split(bytes, size, 4).flatMap((piece) => reader.push(piece));
      rows.push(...reader.end());
      expect(rows).toEqual(parseCsv(text));
      expect(rows[1]).toEqual({ line: 2, cells: ['1', 'first\nsecond ü\r\nthird'] });
    }
  });
});

describe('CSV record limit', () => {
  const refusal = (text: string, limit: number, size = text.length) => {
    const reader = new CsvReader(limit);
    try {
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      reader.end();
      return null;
    } catch (error) {
      if (error instanceof CsvRecordTooLongError) return { line: error.line, column: error.column };
      throw error;
    }
  };

  it('refuses a quoted cell with line breaks over the limit, naming the line its record starts on and the cell', () => {
    const text = `a,b\nx,y\n,"${'line\n'.repeat(5)}"\n`; // the cell: 25 bytes
    for (let size = 1; size <= text.length; size++) {
      expect(refusal(text, 25, size)).toBeNull();
      expect(refusal(text, 24, size)).toEqual({ line: 3, column: 2 });
    }
  });

  it('refuses a record whose cells together pass the limit, and counts UTF-8 bytes', () => {
    expect(refusal('a,b\n12345,67890\n', 10)).toBeNull();
    expect(refusal('a,b\n12345,678901\n', 10)).toEqual({ line: 2, column: undefined });
    expect(refusal('"ééé"\n', 6)).toBeNull();
    expect(refusal('"ééé"\n', 5)).toEqual({ line: 1, column: 1 });
  });

  it('reads records with a limit exactly as without one', () => {
    const text = '\uFEFFa,b\r\n"x, ""y""","two\nlines"\r\n\r\n,last\n';
    const reader = new CsvReader(1024);
    expect([...reader.push(text), ...reader.end()]).toEqual(parseCsv(text));
  });
});
