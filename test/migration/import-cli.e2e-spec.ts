import { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main, progressLine } from '../../scripts/import';
import { startDispatcher } from '../support/dispatcher';
import { freePort } from '../support/redis-server';
import { ImportRepository } from '#contexts/migration';
import { asEntity } from '../support/as-entity';
import { startTestApp, TestApp } from '../support/test-app';
import { tagNames } from './support/imported-rows';

const collect = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
};

describe('import command line', () => {
  let app: TestApp;
  let worker: INestApplicationContext;
  let baseUrl: string;
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp();
    worker = await startDispatcher(app);
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  });
  afterAll(async () => {
    await worker.close();
    await app.close();
  });

  it('uploads in chunks, shows progress and lists failed rows by file line, exiting 1', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 50; i++) lines.push(JSON.stringify({ external_id: `C-${i}`, name: `Cli ${i}` }));
    lines.splice(9, 0, '{"external_id":"C-bad","color":"#000000"}'); // line 10: no name
    lines.splice(19, 0, '', 'not json'); // line 20 blank, line 21 malformed
    const file = path.join(dir, 'tags.ndjson');
    writeFileSync(file, lines.join('\n') + '\n');
    const out = collect();
    const err = collect();
    const code = await main(
      [
        '--file',
        file,
        '--resource',
        'tags',
        '--base-url',
        baseUrl,
        '--api-key',
        app.seed.entities.primary.keys.migration,
        '--chunk-size',
        '15',
        '--poll-ms',
        '50',
      ],
      out.stream,
      err.stream,
    );
    expect(code).toBe(1);
    expect(out.text()).toContain('52 records: 50 succeeded, 2 failed');
    expect(out.text()).toMatch(/line 10 \(C-bad\): parameter_missing \[name\]/);
    expect(out.text()).toMatch(/line 21: invalid_json/);
    expect(err.text()).toMatch(/\[#+\] 52\/52 records +\d+ rec\/s +ETA 00:00/);
    // No route lists imports: the import repository counts them.
    expect(await asEntity(app, () => app.get(ImportRepository).scopedQuery('i').getCount())).toBe(4);
    expect(await tagNames(app, 'Cli ')).toHaveLength(50);
  });

  it('exits 0 when every row lands (entity id and key from the environment)', async () => {
    const file = path.join(dir, 'clean.ndjson');
    writeFileSync(
      file,
      [1, 2, 3].map((i) => JSON.stringify({ external_id: `OK-${i}`, name: `Clean ${i}` })).join('\n'),
    );
    process.env.IMPORT_BASE_URL = baseUrl;
    process.env.IMPORT_API_KEY = app.seed.entities.primary.keys.migration;
    process.env.IMPORT_ENTITY_ID = app.seed.entities.primary.id;
    try {
      const out = collect();
      expect(
        await main(['--file', file, '--resource', 'tags', '--poll-ms', '50'], out.stream, collect().stream),
      ).toBe(0);
      expect(out.text()).toContain('3 records: 3 succeeded, 0 failed');
    } finally {
      delete process.env.IMPORT_BASE_URL;
      delete process.env.IMPORT_API_KEY;
      delete process.env.IMPORT_ENTITY_ID;
    }
  });

  it('exits 2 on usage and API errors', async () => {
    const err = collect();
    expect(await main(['--resource', 'tags'], collect().stream, err.stream)).toBe(2);
    expect(err.text()).toContain('usage:');
    const file = path.join(dir, 'x.ndjson');
    writeFileSync(file, '{"external_id":"a","name":"a"}');
    const apiErr = collect();
    expect(
      await main(
        [
          '--file',
          file,
          '--resource',
          'tags',
          '--base-url',
          baseUrl,
          '--api-key',
          app.seed.entities.primary.keys.read_only,
        ],
        collect().stream,
        apiErr.stream,
      ),
    ).toBe(2);
    expect(apiErr.text()).toContain('insufficient_scope');
  });

  it('answers --help with its usage and exit code 0, names a CSV file as such and an unreachable URL', async () => {
    const out = collect();
    expect(await main(['--help'], out.stream, collect().stream)).toBe(0);
    expect(out.text()).toContain('usage: npm run import --');
    expect(out.text()).toContain('Content-Type: text/csv');

    const csv = path.join(dir, 'tags.csv');
    writeFileSync(csv, 'external_id,name\nc-1,one\n');
    const csvErr = collect();
    expect(
      await main(['--file', csv, '--resource', 'tags', '--api-key', 'k'], collect().stream, csvErr.stream),
    ).toBe(2);
    expect(csvErr.text()).toContain('reads NDJSON only');
    expect(csvErr.text()).toContain('Content-Type: text/csv');

    // A loopback port nothing listens on.
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const file = path.join(dir, 'unreachable.ndjson');
    writeFileSync(file, '{"external_id":"u","name":"u"}');
    const refused = collect();
    expect(
      await main(
        ['--file', file, '--resource', 'tags', '--api-key', 'k', '--base-url', closed],
        collect().stream,
        refused.stream,
      ),
    ).toBe(2);
    expect(refused.text()).toContain(`cannot reach the API at ${closed}/`);
    expect(refused.text()).toContain('(ECONNREFUSED)');
  });

  it('draws the progress bar with rate and ETA', () => {
    expect(progressLine(50, 100, 1000, 10)).toBe('[#####-----] 50/100 records  50 rec/s  ETA 00:01');
  });
});
