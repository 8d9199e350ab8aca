import { finalStatus, parseRow, SourceNumbering, sourceRows } from './import-source';

describe('import sources', () => {
  it('numbers rows by line and skips blank lines', () => {
    expect(sourceRows('{"a":1}\n\n{"b":2}\r\n  \n{"c":3}')).toEqual([
      { row: 1, text: '{"a":1}' },
      { row: 3, text: '{"b":2}' },
      { row: 5, text: '{"c":3}' },
    ]);
  });

  it('numbers a source that arrives in pieces of whole lines as the whole source', () => {
    const whole = '{"a":1}\n\n{"b":2}\r\n  \n{"c":3}\n{"d":4}';
    const numbering = new SourceNumbering();
    const pieces = ['{"a":1}\n\n', '{"b":2}\r\n  \n', '', '{"c":3}\n{"d":4}'].map((p) => numbering.next(p));
    expect(pieces.map((p) => p.firstIndex)).toEqual([0, 1, 2, 2]);
    expect(pieces.flatMap((p) => p.rows)).toEqual(sourceRows(whole));
    expect(numbering.count).toBe(4);
  });

  it('splits the external id from the record', () => {
    expect(parseRow('{"external_id":"T-1","name":"VIP"}')).toEqual({
      ok: true,
      externalId: 'T-1',
      record: { name: 'VIP' },
    });
  });

  it('reports malformed lines, non-objects and bad external ids', () => {
    expect(parseRow('{"external_id":')).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(parseRow('[1,2]')).toMatchObject({ ok: false, code: 'parameter_invalid' });
    expect(parseRow('{"name":"x"}')).toMatchObject({
      ok: false,
      code: 'parameter_missing',
      param: 'external_id',
    });
    expect(parseRow('{"external_id":42}')).toMatchObject({
      ok: false,
      code: 'parameter_invalid',
      param: 'external_id',
    });
    expect(parseRow('{"external_id":"  "}')).toMatchObject({
      ok: false,
      code: 'parameter_invalid',
      param: 'external_id',
    });
  });

  it('finishes with errors only when a row failed', () => {
    expect(finalStatus(0)).toBe('completed');
    expect(finalStatus(3)).toBe('completed_with_errors');
  });
});
