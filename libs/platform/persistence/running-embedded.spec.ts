import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runningEmbeddedServer } from './database';

/** The lines of postmaster.pid PostgreSQL writes: pid, data directory, start time, port, socket dir, ... */
const pidFile = (pid: number, dir: string, port: number) =>
  [pid, dir, '1795920000', port, '/tmp', '127.0.0.1', '  5432001      3', 'ready', ''].join('\n');

describe('runningEmbeddedServer', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'pgdir-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the process and the port of a live server from postmaster.pid', () => {
    writeFileSync(path.join(dir, 'postmaster.pid'), pidFile(process.pid, dir, 54329));
    expect(runningEmbeddedServer(dir)).toEqual({ pid: process.pid, port: 54329 });
  });

  it('ignores a missing file, a file left by a dead server, and a file it cannot read', () => {
    expect(runningEmbeddedServer(dir)).toBeUndefined();
    // Process ids are below 2^22 on Linux: this one cannot be alive.
    writeFileSync(path.join(dir, 'postmaster.pid'), pidFile(2 ** 22 + 17, dir, 54329));
    expect(runningEmbeddedServer(dir)).toBeUndefined();
    writeFileSync(path.join(dir, 'postmaster.pid'), 'garbage');
    expect(runningEmbeddedServer(dir)).toBeUndefined();
  });
});
