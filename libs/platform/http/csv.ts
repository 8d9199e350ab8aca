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
 * An RFC 4180 reader fed a chunk at a time (a record may span chunks): comma-separated cells;
 * a quoted cell may hold commas, line breaks and doubled quotes (`""` is one `"`); records end
 * at LF or CRLF; a UTF-8 byte order mark at the start is dropped and empty lines are skipped.
 * A quote inside an unquoted cell, text after a closing quote and an unclosed quote are errors.
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

  /** The records completed by `text`. */
  push(text: string): CsvRow[] {
    const rows: CsvRow[] = [];
    let i = 0;
    if (!this.begun && text !== '') {
      this.begun = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i++) {
      const ch = text[i];
      if (this.state === 'quoted') {
        if (ch === '"') this.state = 'closing';
        else {
          if (ch === '\n') this.line++;
          this.field += ch;
        }
        continue;
      }
      if (this.state === 'closing') {
        if (ch === '"') {
          this.field += '"';
          this.state = 'quoted';
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
        continue;
      }
      if (ch === ',') {
        this.cells.push(this.field);
        this.field = '';
        this.state = 'start';
      } else if (ch === '\n') {
        this.endRecord(rows);
        this.line++;
        this.recordLine = this.line;
      } else if (ch !== '\r') {
        this.field += ch;
        this.state = 'plain';
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

  private endRecord(rows: CsvRow[]): void {
    const empty = this.cells.length === 0 && this.field === '' && this.state === 'start';
    if (!empty) rows.push({ line: this.recordLine, cells: [...this.cells, this.field] });
    this.cells = [];
    this.field = '';
    this.state = 'start';
  }
}

/** Every record of a whole CSV text. */
export function parseCsv(text: string): CsvRow[] {
  const reader = new CsvReader();
  return [...reader.push(text), ...reader.end()];
}
