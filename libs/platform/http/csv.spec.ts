import { CsvReader, CsvSyntaxError, parseCsv } from './csv';
import { csvHeaders, csvRecord, CsvToNdjson } from '../imports/csv-records';

const TEXT = '\uFEFFa,b\r\n"x, ""y""","two\nlines"\r\n\r\n,last\n';

describe('CSV reader', () => {
  it('reads RFC 4180: quoted commas, doubled quotes, line breaks in quotes, CRLF, BOM, empty lines', () => {
    expect(parseCsv(TEXT)).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, "y"', 'two\nlines'] },
      { line: 5, cells: ['', 'last'] },
    ]);
  });

  it('reads the same records whatever the chunk boundaries', () => {
    for (let size = 1; size <= TEXT.length; size++) {
      const reader = new CsvReader();
      const rows = [];
      for (let i = 0; i < TEXT.length; i += size) rows.push(...reader.push(TEXT.slice(i, i + size)));
      rows.push(...reader.end());
      expect(rows).toEqual(parseCsv(TEXT));
    }
  });

  it('names the line of an unclosed quote, a stray quote and text after a closing quote', () => {
    const lineOf = (text: string) => {
      try {
        parseCsv(text);
      } catch (error) {
        if (error instanceof CsvSyntaxError) return error.line;
      }
      return null;
    };
    expect(lineOf('a\n"open\nb\n')).toBe(2);
    expect(lineOf('a\nb"c\n')).toBe(2);
    expect(lineOf('a\n"b"c\n')).toBe(2);
    expect(lineOf('a\n"b"\n')).toBeNull();
  });
});

describe('CSV records', () => {
  it('builds nested objects and arrays from dotted headers and drops empty cells and elements', () => {
    const headers = csvHeaders({ line: 1, cells: ['id', 'meta.k', 'lines.0.q', 'lines.1.q', 'lines.2.q'] });
    expect(csvRecord(headers, { line: 2, cells: ['1', 'v', '', '', '3'] })).toEqual({
      id: '1',
      meta: { k: 'v' },
      lines: [{ q: '3' }],
    });
    expect(() => csvRecord(headers, { line: 3, cells: ['1', '', '', '', '', 'extra'] })).toThrow(
      CsvSyntaxError,
    );
    expect(() => csvHeaders({ line: 1, cells: ['a', 'a.b'] })).toThrow(/overlaps/);
    expect(() => csvHeaders({ line: 1, cells: ['0.a'] })).toThrow(CsvSyntaxError);
  });

  it('writes NDJSON whose line numbers are the CSV lines records start on', () => {
    const csv = new CsvToNdjson();
    const out = csv.push('external_id,name\nA,"one\ntwo"\nB,b\n') + csv.end();
    const lines = out.split('\n');
    expect(JSON.parse(lines[1])).toEqual({ external_id: 'A', name: 'one\ntwo' });
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[3])).toEqual({ external_id: 'B', name: 'b' });
    expect(lines[0]).toBe('');
  });
});
