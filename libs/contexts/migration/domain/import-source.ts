/** Bulk import rules: how a source becomes numbered rows and how a finished import is judged. Pure. */
import { atMostCodePoints } from '#platform/domain/text-length';

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One row of an import: its 1-based row number in the source and its raw text. */
export interface SourceRow {
  row: number;
  text: string;
}

/**
 * The rows of a source, in order. NDJSON rows are numbered by their line in the upload
 * (blank lines are skipped but keep the numbering); a JSON array is stored one record per line.
 * A source that arrives in pieces of whole lines is numbered piece by piece: `firstLine` is the
 * line the piece starts on (see `SourceNumbering`).
 */
export function sourceRows(source: string, firstLine = 1): SourceRow[] {
  const rows: SourceRow[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].replace(/\r$/, '');
    if (text.trim() !== '') rows.push({ row: firstLine + i, text });
  }
  return rows;
}

/**
 * Numbers a source that arrives in pieces, each made of whole lines (every piece but the last
 * ends with a line break): the rows of each piece with their line in the whole source and their
 * index among its rows (the import's checkpoint counts rows).
 */
export class SourceNumbering {
  private line = 1;
  /** Rows numbered so far. */
  count = 0;

  next(piece: string): { firstIndex: number; rows: SourceRow[] } {
    const rows = sourceRows(piece, this.line);
    const firstIndex = this.count;
    this.count += rows.length;
    for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) this.line++;
    return { firstIndex, rows };
  }
}

export type ParsedRow =
  | { ok: true; externalId: string; record: Record<string, unknown> }
  | {
      ok: false;
      externalId: string | null;
      param?: string;
      code: 'invalid_json' | 'parameter_invalid' | 'parameter_missing';
      hint: string;
    };

/** Parses one row: a JSON object with a non-empty string `external_id`; the rest is the resource's fields. */
export function parseRow(text: string): ParsedRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, externalId: null, code: 'invalid_json', hint: 'This line is not valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      externalId: null,
      code: 'parameter_invalid',
      hint: 'Each record must be a JSON object.',
    };
  }
  const { external_id: externalId, ...record } = value as Record<string, unknown>;
  if (externalId === undefined || externalId === null) {
    return {
      ok: false,
      externalId: null,
      code: 'parameter_missing',
      param: 'external_id',
      hint: 'Missing required parameter: external_id.',
    };
  }
  if (typeof externalId !== 'string' || externalId.trim() === '' || !atMostCodePoints(externalId, 255)) {
    return {
      ok: false,
      externalId: typeof externalId === 'string' ? externalId.slice(0, 255) : null,
      code: 'parameter_invalid',
      param: 'external_id',
      hint: 'external_id must be a non-empty string of at most 255 characters.',
    };
  }
  return { ok: true, externalId, record };
}

/** The final status of an import whose every row was processed. */
export function finalStatus(failed: number): ImportStatus {
  return failed > 0 ? 'completed_with_errors' : 'completed';
}
