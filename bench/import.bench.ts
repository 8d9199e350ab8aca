import http from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { createApiApp } from '../apps/api/bootstrap';
import { DispatcherModule } from '../apps/webhook-dispatcher/dispatcher.module';
import { loadConfig } from '../libs/platform/config/app-config';
import { ensureDatabase, migrate, resolveDatabaseUrl } from '../libs/platform/persistence/database';
import { QaSeedService } from '../libs/platform/seed/qa-seed.service';

/** `npm run bench:import`: imports 50,000 tags through the API and the worker; prints records/s and worker RSS. */
async function main() {
  const records = Number(process.env.BENCH_RECORDS ?? 50_000);
  const base = loadConfig();
  const server = await resolveDatabaseUrl(base);
  const database = `erp_bench_import_${Date.now()}`;
  const adminUrl = new URL(server.url);
  adminUrl.pathname = '/postgres';
  await ensureDatabase(adminUrl.toString(), database);
  const url = new URL(server.url);
  url.pathname = `/${database}`;
  await migrate(url.toString());
  const config = loadConfig({}, { ...base, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', QUEUE_PREFIX: `bench${Date.now()}` });

  const { app } = await createApiApp(config);
  const httpServer = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const seed = await app.get(QaSeedService).run();
  const baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/v1`;
  const worker = await NestFactory.createApplicationContext(DispatcherModule.forRoot(config), { logger: false });

  const body = Array.from({ length: records }, (_, i) => JSON.stringify({ external_id: `B-${i}`, name: `Bench ${i}`, color: '#112233' })).join('\n');
  const started = Date.now();
  let peakRss = process.memoryUsage().rss;
  const res = await fetch(`${baseUrl}/entities/${seed.entities.primary.id}/migration/imports?resource=tags`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${seed.entities.primary.keys.migration}`, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  const created = (await res.json()) as { id: string };
  if (res.status !== 201) throw new Error(`import refused: ${JSON.stringify(created)}`);
  const db = new Client({ connectionString: config.DATABASE_URL });
  await db.connect();
  let row: { status: string; processed: number; succeeded: number; failed: number };
  for (;;) {
    row = (await db.query(`SELECT status, processed, succeeded, failed FROM imports WHERE id = $1`, [created.id])).rows[0];
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (['completed', 'completed_with_errors', 'failed'].includes(row.status)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (Date.now() - started) / 1000;
  const rate = row.processed / seconds;
  const rssMb = peakRss / 1024 / 1024;
  console.log(
    JSON.stringify({
      records,
      status: row.status,
      succeeded: row.succeeded,
      failed: row.failed,
      seconds: Number(seconds.toFixed(2)),
      records_per_second: Math.round(rate),
      worker_peak_rss_mb: Math.round(rssMb),
      note: 'API and worker share this process, so the RSS is an upper bound of the worker alone',
      target: { records_per_second: '>= 2000', worker_rss_mb: '< 400' },
    }),
  );
  await db.end();
  await worker.close();
  await app.close();
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  await server.stop?.();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
