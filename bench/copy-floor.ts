import { Client, Query } from 'pg';
import { cpuMs } from './support';

/** The part of pg's connection that a COPY FROM STDIN writes to. */
interface CopyConnection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** Bytes per CopyData message. */
const CHUNK = 64 * 1024;

/**
 * `COPY ... FROM STDIN` of data already in COPY's text format: pg's client answers the server's
 * CopyInResponse by calling handleCopyInResponse on the running query, which sends the data as
 * CopyData messages and ends it with CopyDone; the query then completes like any other.
 */
class CopyFromText extends Query {
  constructor(
    text: string,
    private readonly data: Buffer,
  ) {
    super(text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (let at = 0; at < this.data.length; at += CHUNK)
      connection.sendCopyFromChunk(this.data.subarray(at, at + CHUNK));
    connection.endCopyFrom();
  }
}

function copyFrom(db: Client, text: string, data: Buffer): Promise<void> {
  const query = db.query(new CopyFromText(text, data));
  return new Promise((resolve, reject) => {
    query.once('end', () => resolve());
    query.once('error', reject);
  });
}

/** A value in COPY's text format: `\N` for null; backslash, tab, newline and carriage return escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/** Rows of one table that the floor writes again: `where` selects them, with `params`. */
export interface CopiedRows {
  table: string;
  where: string;
  params: unknown[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The floor of an import: the rows it wrote (`sets`, read back from the public schema) written
 * again with COPY FROM STDIN into empty copies of their tables in a scratch schema of the same
 * database (same columns, defaults, checks and indexes; no foreign keys or triggers), all in one
 * transaction. Only the COPY statements and their COMMIT are timed; reading the rows and
 * formatting them are not. Answers the seconds, the CPU seconds of the server process that ran the
 * COPY (read from /proc, so the server must run on this machine), the rows read back, the rows
 * the scratch tables hold after the COMMIT, and whether those are the public rows value for value
 * (compared as text), so a COPY that wrote less or mangled a value is seen.
 */
export async function copyFloor(
  db: Client,
  schema: string,
  sets: CopiedRows[],
): Promise<{
  seconds: number;
  databaseCpuSeconds: number;
  rows: number;
  written: number;
  identical: boolean;
}> {
  await db.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
  await db.query(`CREATE SCHEMA ${quote(schema)}`);
  const copies: { text: string; data: Buffer; rows: number }[] = [];
  for (const set of sets) {
    await db.query(
      `CREATE TABLE ${quote(schema)}.${quote(set.table)} (LIKE public.${quote(set.table)} INCLUDING ALL)`,
    );
    // Generated columns are computed by the server, never copied in.
    const columns = (
      await db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
          ORDER BY ordinal_position`,
        [set.table],
      )
    ).rows.map((c) => quote(c.column_name));
    const { rows } = await db.query<(string | null)[]>({
      text: `SELECT ${columns.map((c) => `${c}::text`).join(', ')} FROM public.${quote(set.table)} WHERE ${set.where}`,
      values: set.params,
      rowMode: 'array',
    });
    const data = Buffer.from(rows.map((r) => r.map(copyField).join('\t') + '\n').join(''));
    copies.push({
      text: `COPY ${quote(schema)}.${quote(set.table)} (${columns.join(', ')}) FROM STDIN`,
      data,
      rows: rows.length,
    });
  }
  const backend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const cpuBefore = cpuMs(backend);
  const started = process.hrtime.bigint();
  await db.query('BEGIN');
  try {
    for (const copy of copies) await copyFrom(db, copy.text, copy.data);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const databaseCpuSeconds = (cpuMs(backend) - cpuBefore) / 1000;
  // What the COPY wrote, row for row: each scratch table's rows (as text, in id order) against the
  // rows read back from the public schema.
  let written = 0;
  let identical = true;
  for (const set of sets) {
    const digest = `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.id), '')) AS digest`;
    const copied = (
      await db.query<{ n: number; digest: string }>(`${digest} FROM ${quote(schema)}.${quote(set.table)} t`)
    ).rows[0];
    const source = (
      await db.query<{ n: number; digest: string }>(
        `${digest} FROM public.${quote(set.table)} t WHERE ${set.where}`,
        set.params,
      )
    ).rows[0];
    written += copied.n;
    identical &&= copied.n === source.n && copied.digest === source.digest;
  }
  await db.query(`DROP SCHEMA ${quote(schema)} CASCADE`);
  return { seconds, databaseCpuSeconds, rows: copies.reduce((n, c) => n + c.rows, 0), written, identical };
}
