import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** `npm run import -- --file accounts.ndjson --resource accounts`: uploads NDJSON in chunks, shows progress, reports row errors. */

export interface ImportCliOptions {
  file: string;
  resource: string;
  baseUrl: string;
  apiKey: string;
  entityId?: string;
  chunkSize: number;
  pollMs: number;
}

export interface ImportCliResult {
  total: number;
  succeeded: number;
  failed: number;
  errors: { line: number; external_id: string | null; code: string; param?: string; hint?: string }[];
}

interface ImportStatus {
  id: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

const USAGE =
  'usage: npm run import -- --file <records.ndjson> --resource <name> [--base-url URL] [--api-key KEY] [--entity-id ID] [--chunk-size N]';

const HELP = `${USAGE}
       npm run import -- --help

Uploads an NDJSON file (one JSON record per line, each with an external_id) to the bulk import
API in chunks, shows progress, and lists the rows that failed by file line.

  --file PATH        the NDJSON file (a CSV file is uploaded with the API itself, see below)
  --resource NAME    what the records are (tags, accounts, products, orders, ...)
  --base-url URL     the API, default IMPORT_BASE_URL or http://127.0.0.1:3000/v1
  --api-key KEY      a key with migrations:write, default IMPORT_API_KEY
  --entity-id ID     default IMPORT_ENTITY_ID, else the key's entity
  --chunk-size N     records per upload (10000)
  --poll-ms N        how often progress is read (250)

Exit code: 0 when every row landed, 1 when rows failed, 2 on a usage or API error.
CSV: POST the file to /v1/entities/{entity_id}/migration/imports?resource=<name> with
Content-Type: text/csv (a header row, then one record per row).`;

/** Asked for the help text: printed on stdout, exit code 0. */
class HelpRequested extends Error {}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ImportCliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      file: { type: 'string' },
      resource: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'entity-id': { type: 'string' },
      'chunk-size': { type: 'string' },
      'poll-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new HelpRequested(HELP);
  if (values.file && /\.csv$/i.test(values.file))
    throw new Error(
      `${values.file}: this command reads NDJSON only (one JSON record per line). Upload a CSV file to the API itself: ` +
        'POST /v1/entities/{entity_id}/migration/imports?resource=<name> with Content-Type: text/csv (see --help).',
    );
  const baseUrl = values['base-url'] ?? env.IMPORT_BASE_URL ?? 'http://127.0.0.1:3000/v1';
  const apiKey = values['api-key'] ?? env.IMPORT_API_KEY;
  if (!values.file || !values.resource || !apiKey)
    throw new Error(`${USAGE}\n(the key comes from --api-key or IMPORT_API_KEY)`);
  const chunkSize = Number(values['chunk-size'] ?? 10_000);
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new Error('--chunk-size must be a positive integer');
  return {
    file: values.file,
    resource: values.resource,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    entityId: values['entity-id'] ?? env.IMPORT_ENTITY_ID,
    chunkSize,
    pollMs: Number(values['poll-ms'] ?? 250),
  };
}

class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async call<T>(method: string, path: string, body?: string, contentType = 'application/json'): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    const res = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${this.apiKey}`,
        ...(body !== undefined ? { 'Content-Type': contentType } : {}),
      },
      body,
    }).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
      // fetch says only "fetch failed"; the cause names the refused or unresolved address.
      const cause = error.cause?.code ?? error.cause?.message ?? error.message;
      throw new Error(`cannot reach the API at ${url} (${cause}); is it running? (--base-url)`);
    });
    // Errors are one flat envelope: `code` and `hint` at the top level.
    const json = (await res.json().catch(() => ({}))) as T & { code?: string; hint?: string };
    if (!res.ok)
      throw new Error(
        `${method} ${path} answered ${res.status} ${json.code ?? ''}: ${json.hint ?? ''}`.trim(),
      );
    return json;
  }
}

/** The file's non-blank lines with their line numbers, cut into chunks of at most `size` lines. */
export function chunkLines(
  text: string,
  size: number,
): { firstLine: number; lines: string[]; lineNumbers: number[] }[] {
  const chunks: { firstLine: number; lines: string[]; lineNumbers: number[] }[] = [];
  let current: { firstLine: number; lines: string[]; lineNumbers: number[] } | undefined;
  const all = text.split('\n');
  for (let i = 0; i < all.length; i++) {
    const line = all[i].replace(/\r$/, '');
    if (line.trim() === '') continue;
    if (!current || current.lines.length >= size) {
      current = { firstLine: i + 1, lines: [], lineNumbers: [] };
      chunks.push(current);
    }
    current.lines.push(line);
    current.lineNumbers.push(i + 1);
  }
  return chunks;
}

const formatDuration = (seconds: number) => {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** One line of the live progress bar: records, rate and ETA. */
export function progressLine(done: number, total: number, elapsedMs: number, width = 30): string {
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * width);
  const rate = elapsedMs > 0 ? (done / elapsedMs) * 1000 : 0;
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} records  ${Math.round(rate)} rec/s  ETA ${formatDuration(eta)}`;
}

/** Runs the import; progress goes to `progress` (stderr), the summary is returned. */
export async function runImport(
  options: ImportCliOptions,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<ImportCliResult> {
  const client = new ApiClient(options.baseUrl, options.apiKey);
  const entityId =
    options.entityId ?? (await client.call<{ entity_id: string }>('GET', '/migration/cutover')).entity_id;
  const base = `/entities/${encodeURIComponent(entityId)}/migration/imports`;
  const chunks = chunkLines(readFileSync(options.file, 'utf8'), options.chunkSize);
  const total = chunks.reduce((n, c) => n + c.lines.length, 0);
  const started = Date.now();
  const tty = (progress as NodeJS.WriteStream).isTTY === true;
  const draw = (done: number, final = false) => {
    const line = progressLine(done, total, Date.now() - started);
    progress.write(tty ? `\r${line}${final ? '\n' : ''}` : `${line}\n`);
  };

  const imports: { id: string; chunk: (typeof chunks)[number]; status?: ImportStatus }[] = [];
  for (const chunk of chunks) {
    const created = await client.call<ImportStatus>(
      'POST',
      `${base}?resource=${encodeURIComponent(options.resource)}`,
      chunk.lines.join('\n'),
      'application/x-ndjson',
    );
    imports.push({ id: created.id, chunk, status: created });
  }
  const finished = (s?: ImportStatus) =>
    s !== undefined && ['completed', 'completed_with_errors', 'failed'].includes(s.status);
  let lastDrawn = -1;
  for (;;) {
    for (const entry of imports) {
      if (!finished(entry.status))
        entry.status = await client.call<ImportStatus>('GET', `${base}/${entry.id}`);
    }
    const done = imports.reduce((n, e) => n + (e.status?.processed ?? 0), 0);
    if (done !== lastDrawn || !tty) draw(done);
    lastDrawn = done;
    if (imports.every((e) => finished(e.status))) break;
    await new Promise((r) => setTimeout(r, options.pollMs));
  }
  draw(lastDrawn, true);

  const result: ImportCliResult = { total, succeeded: 0, failed: 0, errors: [] };
  for (const entry of imports) {
    const s = entry.status!;
    result.succeeded += s.succeeded;
    result.failed += s.status === 'failed' ? s.total - s.succeeded : s.failed;
    let cursor: string | undefined;
    for (;;) {
      const page = await client.call<{
        data: {
          id: string;
          row: number;
          external_id: string | null;
          error: { code: string; param?: string; hint?: string };
        }[];
        has_more: boolean;
      }>('GET', `${base}/${entry.id}/errors?limit=100${cursor ? `&starting_after=${cursor}` : ''}`);
      for (const e of page.data) {
        // Rows are numbered within the uploaded chunk; map them back to the file's lines.
        const line = entry.chunk.lineNumbers[e.row - 1] ?? e.row;
        result.errors.push({
          line,
          external_id: e.external_id,
          code: e.error.code,
          param: e.error.param,
          hint: e.error.hint,
        });
      }
      if (!page.has_more || page.data.length === 0) break;
      cursor = page.data[page.data.length - 1].id;
    }
  }
  return result;
}

export function summary(result: ImportCliResult, seconds: number): string {
  const lines = [
    `${result.total} records: ${result.succeeded} succeeded, ${result.failed} failed in ${seconds.toFixed(1)} s`,
  ];
  for (const e of result.errors) {
    lines.push(
      `  line ${e.line}${e.external_id ? ` (${e.external_id})` : ''}: ${e.code}${e.param ? ` [${e.param}]` : ''}${e.hint ? ` ${e.hint}` : ''}`,
    );
  }
  return lines.join('\n');
}

/** Exit code: 0 when every row landed, 1 when rows failed, 2 on a usage or API error. */
export async function main(
  argv = process.argv.slice(2),
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let options: ImportCliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof HelpRequested) {
      stdout.write(`${error.message}\n`);
      return 0;
    }
    stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const started = Date.now();
  try {
    const result = await runImport(options, stderr);
    stdout.write(`${summary(result, (Date.now() - started) / 1000)}\n`);
    return result.failed > 0 ? 1 : 0;
  } catch (error) {
    stderr.write(`import failed: ${(error as Error).message}\n`);
    return 2;
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
