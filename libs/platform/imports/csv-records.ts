import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { CsvReader, CsvRow, CsvSyntaxError } from '../http/csv';

/**
 * How a CSV row becomes the record an NDJSON line would be:
 * - the header row names the fields; a dotted header is a path into nested objects
 *   (`billing_address.line1`), and a numeric segment an array index (`lines.0.quantity`);
 * - an empty cell leaves its field absent, so rows of one file may have different numbers of
 *   array elements (elements whose cells are all empty are dropped, the rest close up);
 * - a cell is a string unless the resource's body schema (the REST create DTO) types the field
 *   as a number or boolean: then a numeric cell becomes a number and `true`/`false` a boolean
 *   (any other text stays a string, and validation names the field).
 */

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$|^\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

interface FieldMeta {
  type?: unknown;
  isArray?: boolean;
  /** From the field's validators (a nullable number is typed Object in its OpenAPI metadata). */
  validates?: 'number' | 'boolean';
}

const NUMBER_VALIDATORS = new Set(['isNumber', 'isInt', 'isMoneyAmount', 'isExactMoneyAmount']);
const validatedTypes = new Map<Type<object>, Map<string, 'number' | 'boolean'>>();

/** The fields of a DTO whose validators want a number or a boolean. */
function validatedTypesOf(schema: Type<object>): Map<string, 'number' | 'boolean'> {
  let types = validatedTypes.get(schema);
  if (!types) {
    types = new Map();
    for (const v of getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false)) {
      if (v.name && NUMBER_VALIDATORS.has(v.name)) types.set(v.propertyName, 'number');
      else if (v.name === 'isBoolean') types.set(v.propertyName, 'boolean');
    }
    validatedTypes.set(schema, types);
  }
  return types;
}

function metaOf(schema: Type<object> | undefined, key: string): FieldMeta | undefined {
  if (!schema) return undefined;
  const meta = Reflect.getMetadata('swagger/apiModelProperties', schema.prototype as object, key) as
    FieldMeta | undefined;
  return { ...meta, validates: validatedTypesOf(schema).get(key) };
}

const isSchema = (t: unknown): t is Type<object> =>
  typeof t === 'function' &&
  t.prototype !== undefined &&
  Reflect.getMetadata('swagger/apiModelPropertiesArray', t.prototype as object) !== undefined;

/** The DTO class of a nested field (`type: OrderLineDto` or a lazy `() => OrderLineDto`), if any. */
function nestedSchema(meta: FieldMeta | undefined): Type<object> | undefined {
  const t = meta?.type;
  if (isSchema(t)) return t;
  if (typeof t === 'function' && t.prototype === undefined) {
    const resolved = (t as () => unknown)();
    if (isSchema(resolved)) return resolved;
  }
  return undefined;
}

function typed(cell: string, meta: FieldMeta | undefined): unknown {
  const t = meta?.type;
  const number = t === Number || t === 'number' || t === 'integer' || meta?.validates === 'number';
  if (number && NUMBER.test(cell.trim())) return Number(cell);
  if (t === Boolean || t === 'boolean' || meta?.validates === 'boolean') {
    if (cell === 'true') return true;
    if (cell === 'false') return false;
  }
  return cell;
}

/** Arrays without the elements no cell filled. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}

/** The field paths of a header row; refuses empty, malformed, repeated and overlapping names. */
export function csvHeaders(row: CsvRow): string[][] {
  const paths = row.cells.map((cell, i) => {
    const name = cell.trim();
    const path = name.split('.');
    if (name === '' || !path.every((s) => SEGMENT.test(s)) || /^\d+$/.test(path[0]))
      throw new CsvSyntaxError(
        row.line,
        `header ${i + 1} ('${cell}') is not a field name or a dotted path such as billing_address.line1 or lines.0.quantity.`,
      );
    return path;
  });
  const names = paths.map((p) => p.join('.'));
  names.forEach((name, i) => {
    const clash = names.find((other, j) => j !== i && (other === name || other.startsWith(`${name}.`)));
    if (clash !== undefined)
      throw new CsvSyntaxError(
        row.line,
        clash === name ? `header '${name}' appears twice.` : `header '${name}' overlaps '${clash}'.`,
      );
  });
  return paths;
}

/** The record of one data row (see above); `schema` types numbers and booleans. */
export function csvRecord(headers: string[][], row: CsvRow, schema?: Type<object>): Record<string, unknown> {
  if (row.cells.length > headers.length)
    throw new CsvSyntaxError(
      row.line,
      `the row has ${row.cells.length} cells and the header row ${headers.length}.`,
    );
  const record: Record<string, unknown> = {};
  row.cells.forEach((cell, i) => {
    if (cell === '') return;
    const path = headers[i];
    let node: Record<string, unknown> | unknown[] = record;
    let nodeSchema = schema;
    let meta: FieldMeta | undefined;
    path.forEach((segment, depth) => {
      // An index keeps the array field's schema (its elements'); a name looks its field up.
      const key: string | number = Array.isArray(node) ? Number(segment) : segment;
      if (!Array.isArray(node)) {
        meta = metaOf(nodeSchema, segment);
        nodeSchema = nestedSchema(meta);
      }
      const container = node as Record<string | number, unknown>;
      if (depth === path.length - 1) {
        container[key] = typed(cell, meta);
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[depth + 1]);
      const existing = container[key];
      if (existing === undefined) container[key] = nextIsIndex ? [] : {};
      else if (Array.isArray(existing) !== nextIsIndex)
        throw new CsvSyntaxError(
          row.line,
          `header '${path.join('.')}' mixes an index and a field name at '${path.slice(0, depth + 1).join('.')}'.`,
        );
      node = container[key] as Record<string, unknown> | unknown[];
    });
  });
  return compact(record) as Record<string, unknown>;
}

/**
 * Turns a CSV upload, fed a chunk at a time, into NDJSON text whose line numbers are the CSV's:
 * the record that starts on line N of the CSV is line N of the NDJSON (the header row and the
 * continuation lines of multi-line records become empty lines), so row errors name CSV lines.
 * Throws CsvSyntaxError for malformed CSV and CsvRecordTooLongError for a record over the limit.
 */
export class CsvToNdjson {
  private readonly reader: CsvReader;
  private headers: string[][] | null = null;
  private written = 0;

  /** `recordLimitBytes` bounds each record (CsvRecordTooLongError past it). */
  constructor(
    private readonly schema?: Type<object>,
    recordLimitBytes?: number,
  ) {
    this.reader = new CsvReader(recordLimitBytes);
  }

  push(chunk: string): string {
    return this.lines(this.reader.push(chunk));
  }

  end(): string {
    return this.lines(this.reader.end());
  }

  private lines(rows: CsvRow[]): string {
    let out = '';
    for (const row of rows) {
      if (!this.headers) {
        this.headers = csvHeaders(row);
        continue;
      }
      const record = csvRecord(this.headers, row, this.schema);
      out += '\n'.repeat(row.line - 1 - this.written) + JSON.stringify(record) + '\n';
      this.written = row.line;
    }
    return out;
  }
}
