import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../apps/api/app.module';
import { loadConfig } from '#platform/config/app-config';
import { UNVERSIONED_CONTROLLERS } from '#platform/http/route-registry';
import { buildOpenApiDocument } from '#platform/openapi/openapi';

/**
 * Writes the OpenAPI description to a file (first argument, default openapi.json) without a
 * database: the application graph is built in preview mode, which reads the controllers'
 * metadata and instantiates nothing.
 */
async function main(): Promise<void> {
  const out = process.argv[2] ?? 'openapi.json';
  const config = loadConfig(
    {},
    { DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused', LOG_LEVEL: 'silent' },
  );
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  app.setGlobalPrefix('v1', { exclude: UNVERSIONED_CONTROLLERS });
  const document = buildOpenApiDocument(app, config);
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
