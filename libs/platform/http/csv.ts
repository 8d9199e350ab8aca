/** One record of a CSV text: the physical line it starts on (1-based) and its cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** A CSV text that does not follow RFC 4180; `line` is where the fault is. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A record (or one of its cells) longer than the reader's limit; `line` is where the record
 * starts and `column` the 1-based cell that passed the limit when that cell alone is over it.
 */
export class CsvRecordTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly limitBytes: number,
    readonly column?: number,
  ) {
    super(
      column === undefined
        ? `the record at line ${line} is longer than ${limitBytes} bytes`
        : `cell ${column} of the record at line ${line} is longer than ${limitBytes} bytes`,
    );
  }
}

/** UTF-8 bytes of a UTF-16 code unit (a surrogate pair counts 2 + 2). */
const utf8Bytes = (code: number) =>
  code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;

/** Ends an unquoted run of characters. */
const PLAIN_STOP = /[",\r\n]/g;

/**
 * An RFC 4180 reader fed a chunk at a time (a record may span chunks): comma-separated cells;
 * a quoted cell may hold commas, line breaks and doubled quotes (`""` is one `"`); records end
 * at LF or CRLF; a UTF-8 byte order mark at the start is dropped and empty lines are skipped.
 * A quote inside an unquoted cell, text after a closing quote and an unclosed quote are errors.
 * A record whose cells hold more than `recordLimitBytes` of UTF-8 (quoted line breaks
 * included) throws CsvRecordTooLongError as soon as it passes the limit, so one huge quoted
 * cell is refused without being kept. Runs of ordinary characters are copied as slices, so the
 * cost is linear in the text.
 */
export class CsvReader {
  private cells: string[] = [];
  private field = '';
  /** start: at a cell's start; plain: inside an unquoted cell; quoted: inside quotes; closing: just after a quote inside quotes. */
  private state: 'start' | 'plain' | 'quoted' | 'closing' = 'start';
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  private begun = false;
  private fieldBytes = 0;
  private recordBytes = 0;

  constructor(private readonly recordLimitBytes = Infinity) {}

  /** The records completed by `text`. */
  push(text: string): CsvRow[] {
    const rows: CsvRow[] = [];
    let i = 0;
    if (!this.begun && text !== '') {
      this.begun = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    while (i < text.length) {
      if (this.state === 'quoted') {
        const quote = text.indexOf('"', i);
        const end = quote === -1 ? text.length : quote;
        this.take(text, i, end);
        if (quote === -1) break;
        this.state = 'closing';
        i = quote + 1;
        continue;
      }
      const ch = text[i];
      if (this.state === 'closing') {
        if (ch === '"') {
          this.take(text, i, i + 1);
          this.state = 'quoted';
          i++;
          continue;
        }
        if (ch !== ',' && ch !== '\n' && ch !== '\r')
          throw new CsvSyntaxError(this.line, 'text follows the closing quote of a cell.');
      } else if (ch === '"') {
        if (this.state === 'plain')
          throw new CsvSyntaxError(
            this.line,
            'a quote inside an unquoted cell (quote the whole cell and double the quote).',
          );
        this.state = 'quoted';
        this.quoteLine = this.line;
        i++;
        continue;
      }
      if (ch === ',') {
        this.cells.push(this.field);
        this.field = '';
        this.fieldBytes = 0;
        this.state = 'start';
        i++;
      } else if (ch === '\n') {
        this.endRecord(rows);
        this.line++;
        this.recordLine = this.line;
        i++;
      } else if (ch === '\r') {
        i++;
      } else {
        PLAIN_STOP.lastIndex = i;
        const stop = PLAIN_STOP.exec(text);
        const end = stop === null ? text.length : stop.index;
        this.take(text, i, end);
        this.state = 'plain';
        i = end;
      }
    }
    return rows;
  }

  /** The last record, once the text has ended. */
  end(): CsvRow[] {
    if (this.state === 'quoted') throw new CsvSyntaxError(this.quoteLine, 'a quoted cell is never closed.');
    const rows: CsvRow[] = [];
    this.endRecord(rows);
    return rows;
  }

  /** Appends text[from, to) to the cell, counting its line breaks and checking the limit. */
  private take(text: string, from: number, to: number): void {
    if (to <= from) return;
    let bytes = 0;
    for (let k = from; k < to; k++) {
      const code = text.charCodeAt(k);
      bytes += utf8Bytes(code);
      if (code === 0x0a) this.line++;
    }
    this.fieldBytes += bytes;
    this.recordBytes += bytes;
    if (this.recordBytes > this.recordLimitBytes) {
      const column = this.fieldBytes > this.recordLimitBytes ? this.cells.length + 1 : undefined;
      throw new CsvRecordTooLongError(this.recordLine, this.recordLimitBytes, column);
    }
    this.field += text.slice(from, to);
  }

  private endRecord(rows: CsvRow[]): void {
    const empty = this.cells.length === 0 && this.field === '' && this.state === 'start';
    if (!empty) rows.push({ line: this.recordLine, cells: [...this.cells, this.field] });
    this.cells = [];
    this.field = '';
    this.fieldBytes = 0;
    this.recordBytes = 0;
    this.state = 'start';
  }
}

/** Every record of a whole CSV text. */
export function parseCsv(text: string): CsvRow[] {
  const reader = new CsvReader();
  return [...reader.push(text), ...reader.end()];
}
