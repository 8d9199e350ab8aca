import { readFileSync } from 'node:fs';

/**
 * `node dist/bench/cpu-profile-report.js <file.cpuprofile> [...]`: where the API's CPU went, by
 * piece of the request pipeline. Each sample is charged to the innermost frame that belongs to a
 * JavaScript file of ours or of a package (V8 builtins and Node's internals count for the code
 * that called them: a `JSON.stringify` in the ETag interceptor is the interceptor's, a socket
 * write from Express is Express's), then that file is mapped to a piece below. GC, idle and
 * program time are their own rows. Profiles come from `BENCH_API_EXEC_ARGV="--cpu-prof
 * --cpu-prof-dir=..."` on a benchmark run.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** File pattern -> piece of the pipeline; the first match wins. */
const PIECES: [RegExp, string][] = [
  [/request-pipeline\.middleware|entity-alias\.middleware/, 'request-pipeline + entity-alias middleware'],
  [/activity\/activity-log/, 'activity-log middleware'],
  [
    /observability\/logger|request-log|node_modules\/(pino-http|pino|pino-std-serializers|fast-redact|sonic-boom|thread-stream|on-exit-leak-free|atomic-sleep|quick-format-unescaped|safe-stable-stringify)\//,
    'request logging (pino-http, pino)',
  ],
  [
    /node_modules\/(body-parser|raw-body|type-is|content-type|media-typer|iconv-lite|bytes|mime-types|mime-db)\//,
    'body parsing',
  ],
  [
    /api\.guard|bearer\.strategy|api-key\.|key-format|ip-allowlist|notified-cache|node_modules\/(passport|passport-http-bearer|passport-strategy|@nestjs\/passport)\//,
    'guard: passport + bearer + key lookup',
  ],
  [/rate-limiter|mutation-gate|auth\/scopes|freeze/, 'guard: rate limit, scopes, freeze gate'],
  [/request-context/, 'request context (AsyncLocalStorage)'],
  [
    /idempotency|etag\.interceptor|expand\.interceptor|expand-registry|api-pipeline\.interceptor|route-policy|node_modules\/rxjs\//,
    'interceptors (idempotency, expand, ETag) + rxjs',
  ],
  [
    /validation\.pipe|node_modules\/(class-validator|class-transformer|validator|libphonenumber-js)\//,
    'validation pipe (class-validator, class-transformer)',
  ],
  [/exception\.filter|error-envelope|domain-error|error-catalog/, 'exception filter / errors'],
  [/dist\/bench\//, 'bench-only code (SQL tracing, profiler session)'],
  [
    /tenant-repository|plain-reader|raw-pool|transaction-host|persistence\//,
    'repositories (TenantRepository, PlainReader)',
  ],
  [/dist\/libs\/contexts\//, 'handlers, services, presenters (serialisation)'],
  [
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-date|postgres-array|postgres-bytea|postgres-interval|pgpass|buffer-writer|packet-reader)\//,
    'pg driver',
  ],
  [/node_modules\/typeorm\//, 'TypeORM'],
  [
    /node_modules\/@nestjs\/core\/router|router-execution-context|router-proxy|router-response-controller|route-params-factory/,
    'Nest router / execution context',
  ],
  [
    /node_modules\/@nestjs\/core\/(guards|interceptors|pipes|exceptions|helpers)/,
    'Nest guards/interceptors/pipes consumers',
  ],
  [/node_modules\/@nestjs\//, 'Nest (other)'],
  [
    /node_modules\/(express|router|finalhandler|send|serve-static|qs|parseurl|path-to-regexp|depd|on-finished|encodeurl|escape-html|vary|etag|fresh|range-parser|proxy-addr|forwarded|ipaddr\.js|accepts|negotiator|cookie|cookie-signature|content-disposition|statuses|http-errors|setprototypeof|merge-descriptors|utils-merge|side-channel[^/]*|object-inspect|call-bind[^/]*|get-intrinsic|es-[^/]*|function-bind|hasown|has-symbols|gopd|math-intrinsics|dunder-proto|get-proto)\//,
    'Express (router, req/res helpers, qs)',
  ],
  [
    /node_modules\/(ioredis|bullmq|@ioredis|redis-[^/]*|msgpackr|cron-parser|luxon)\//,
    'queues / Redis (background)',
  ],
  [/node_modules\//, 'other packages'],
  [/dist\/libs\/platform\//, 'platform (other)'],
  [/dist\/apps\//, 'app bootstrap'],
];

const SPECIAL: Record<string, string> = {
  writev: 'socket writes (kernel)',
  dispatch: 'bench-only code (SQL tracing, profiler session)',
  writeBuffer: 'socket writes (kernel)',
  writeUtf8String: 'socket writes (kernel)',
  writeLatin1String: 'socket writes (kernel)',
  writeAsciiString: 'socket writes (kernel)',
  runMicrotasks: 'promise / microtask machinery',
  '(garbage collector)': 'garbage collection',
  '(idle)': 'idle',
  '(program)': 'V8/native (program)',
  '(root)': 'V8/native (program)',
};

function pieceOf(url: string): string | undefined {
  if (!url || url.startsWith('node:') || !url.includes('/')) return undefined;
  for (const [pattern, piece] of PIECES) if (pattern.test(url)) return piece;
  return 'other JavaScript';
}

export function attribute(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const charge = (id: number): string => {
    const cached = memo.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const special = SPECIAL[node.callFrame.functionName];
    let piece = special && node.callFrame.url === '' ? special : pieceOf(node.callFrame.url);
    if (!piece) {
      const up = parent.get(id);
      piece = up === undefined ? 'Node internals (http, net, timers)' : charge(up);
      if (piece === 'V8/native (program)') piece = 'Node internals (http, net, timers)';
    }
    memo.set(id, piece);
    return piece;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const piece = charge(id);
    totals.set(piece, (totals.get(piece) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

/** `--columns`: one column per profile (share of its busy CPU), else one table for all of them summed. */
function main() {
  const args = process.argv.slice(2);
  const columns = args.includes('--columns');
  const files = args.filter((a) => a !== '--columns');
  if (files.length === 0) throw new Error('usage: cpu-profile-report [--columns] <file.cpuprofile> ...');
  const tables = files.map((file) => attribute(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile));
  if (columns) {
    const busy = tables.map((t) =>
      [...t.entries()].filter(([p]) => p !== 'idle').reduce((s, [, us]) => s + us, 0),
    );
    const pieces = new Map<string, number>();
    tables.forEach((t, i) => {
      for (const [piece, us] of t)
        if (piece !== 'idle') pieces.set(piece, (pieces.get(piece) ?? 0) + us / busy[i]);
    });
    const names = files.map((f) => f.replace(/^.*\//, '').replace(/\.cpuprofile$/, ''));
    console.log(`| piece | ${names.join(' | ')} |`);
    console.log(`| --- | ${names.map(() => '---:').join(' | ')} |`);
    for (const [piece] of [...pieces.entries()].sort((a, b) => b[1] - a[1])) {
      const cells = tables.map((t, i) => `${((100 * (t.get(piece) ?? 0)) / busy[i]).toFixed(1)} %`);
      console.log(`| ${piece} | ${cells.join(' | ')} |`);
    }
    return;
  }
  const totals = new Map<string, number>();
  for (const table of tables)
    for (const [piece, us] of table) totals.set(piece, (totals.get(piece) ?? 0) + us);
  const busy = [...totals.entries()].filter(([p]) => p !== 'idle').reduce((s, [, us]) => s + us, 0);
  console.log(
    `busy CPU ${(busy / 1e6).toFixed(1)} s (idle ${((totals.get('idle') ?? 0) / 1e6).toFixed(1)} s)`,
  );
  console.log('| piece | CPU s | share of busy CPU |');
  console.log('| --- | ---: | ---: |');
  for (const [piece, us] of [...totals.entries()].filter(([p]) => p !== 'idle').sort((a, b) => b[1] - a[1]))
    console.log(`| ${piece} | ${(us / 1e6).toFixed(2)} | ${((100 * us) / busy).toFixed(1)} % |`);
}

if (require.main === module) main();
