import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '#platform/config/app-config';

/**
 * The OpenAPI description the test apps of one run share. Building it from the routes is the
 * largest step of an app's boot; every app of the product's modules (no test-only modules) and
 * the same base URLs builds the same description, so the first such app of a run builds it from
 * the sources and publishes what it serves, and the others serve that copy.
 */
function cacheFile(dir: string, config: AppConfig): string {
  const key = createHash('sha256').update(`${config.baseUrl}\n${config.sandboxBaseUrl}`).digest('hex');
  return path.join(dir, `openapi-${key.slice(0, 16)}.json`);
}

/** The description an earlier app of the run published for these base URLs, if any. */
export function sharedOpenApi(dir: string | undefined, config: AppConfig): OpenAPIObject | undefined {
  if (!dir) return undefined;
  const file = cacheFile(dir, config);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject) : undefined;
}

/** Publishes the description an app built and served (written whole, then renamed into place). */
export function shareOpenApi(dir: string | undefined, config: AppConfig, document: unknown): void {
  if (!dir) return;
  const file = cacheFile(dir, config);
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(document));
  renameSync(partial, file);
}
