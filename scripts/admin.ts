import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { OperatorService } from '#platform/auth/operator.service';
import { loadConfig } from '#platform/config/app-config';
import { DomainError } from '#platform/errors/domain-error';
import { PlatformCoreModule } from '#platform/platform-core.module';
import { resolveDatabaseUrl } from '#platform/persistence/database';
import { assertSchemaCurrent } from '#platform/persistence/schema-state';
import { failureText } from '#platform/observability/failure-text';
import type { Mode } from '#platform/tenancy/request-context';
// The contexts' scopes, which the keys made here are checked against.
import '#contexts/vocabulary';

/**
 * `npm run admin -- <command> [options]`: how an operator gets into a deployment without the QA
 * seed. Talks to the database of DATABASE_URL through the platform's services; needs no API key.
 */
const USAGE = `usage: npm run admin -- <command> [options] [--json]
       npm run admin -- --help

  entities:create --code <code> --name <name> --currency <ISO 4217> [--timezone <tz>] [--mode live|test]
      creates an entity and prints its first key (all scopes) once
  entities:list
  keys:create --entity <code> --name <name> [--mode live|test] [--scopes a:read,b:write|*]
      prints the new key once
  keys:list --entity <code>
  keys:rotate --id <key id>      prints the replacement once; the old key stops working at once
  keys:revoke --id <key id>`;

class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;

const required = (values: Values, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

const modeOf = (values: Values): Mode => {
  const mode = (values.mode as string | undefined) ?? 'live';
  if (mode !== 'live' && mode !== 'test') throw new UsageError('--mode is live or test');
  return mode;
};

interface KeyView {
  id: string;
  name: string;
  mode: string;
  status: string;
  scopes: string[];
  redacted_key: string;
  secret?: string;
}

const keyLine = (k: KeyView) =>
  `${k.id}  ${k.mode.padEnd(4)}  ${k.status.padEnd(7)}  ${k.redacted_key}  ${k.name}  [${k.scopes.join(' ')}]`;

const secretBlock = (k: KeyView) =>
  `\nAPI key (shown only now; store it in your secret manager):\n\n  ${k.secret}\n\n`;

async function run(
  command: string,
  values: Values,
  operator: OperatorService,
): Promise<{ json: unknown; text: string }> {
  switch (command) {
    case 'entities:create': {
      const result = await operator.createEntity({
        code: required(values, 'code'),
        name: required(values, 'name'),
        baseCurrency: required(values, 'currency'),
        timezone: values.timezone as string | undefined,
        mode: modeOf(values),
      });
      return {
        json: result,
        text: `Entity ${result.entity.code} (${result.entity.id}) created, base currency ${result.entity.base_currency}.\n${secretBlock(result.key)}`,
      };
    }
    case 'entities:list': {
      const entities = await operator.listEntities();
      return {
        json: entities,
        text:
          entities.map((e) => `${e.id}  ${e.code.padEnd(12)}  ${e.base_currency}  ${e.name}`).join('\n') +
          '\n',
      };
    }
    case 'keys:create': {
      const scopes = ((values.scopes as string | undefined) ?? '*').split(',').map((s) => s.trim());
      const key = await operator.createKey({
        entityCode: required(values, 'entity'),
        name: required(values, 'name'),
        mode: modeOf(values),
        scopes,
      });
      return { json: key, text: `${keyLine(key)}\n${secretBlock(key)}` };
    }
    case 'keys:list': {
      const keys = await operator.listKeys(required(values, 'entity'));
      return { json: keys, text: keys.map(keyLine).join('\n') + '\n' };
    }
    case 'keys:rotate': {
      const key = await operator.rotateKey(required(values, 'id'));
      return { json: key, text: `${keyLine(key)}\n${secretBlock(key)}` };
    }
    case 'keys:revoke': {
      const key = await operator.revokeKey(required(values, 'id'));
      return { json: key, text: `${keyLine(key)}\n` };
    }
    default:
      throw new UsageError(command ? `unknown command '${command}'` : 'a command is required');
  }
}

/** Runs one command; exit code 0 on success, 1 when refused (bad input, unknown entity), 2 on usage. */
export async function main(
  argv = process.argv.slice(2),
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let command: string;
  let values: Values;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        code: { type: 'string' },
        name: { type: 'string' },
        currency: { type: 'string' },
        timezone: { type: 'string' },
        mode: { type: 'string' },
        entity: { type: 'string' },
        scopes: { type: 'string' },
        id: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    command = parsed.positionals[0] ?? '';
    values = parsed.values;
    if (values.help || command === 'help') {
      stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (!command) throw new UsageError('a command is required');
  } catch (error) {
    stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(env, { LOG_LEVEL: 'silent' });
  let database: Awaited<ReturnType<typeof resolveDatabaseUrl>>;
  try {
    database = await resolveDatabaseUrl(config);
  } catch (error) {
    stderr.write(`${failureText(error)}\n`);
    return 1;
  }
  config.DATABASE_URL = database.url;
  try {
    await assertSchemaCurrent(database.url);
  } catch (error) {
    stderr.write(`${failureText(error)}\n`);
    await database.stop?.();
    return 1;
  }
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
  try {
    // abortOnError false: a failure to start is thrown here and printed, not a silent exit.
    app = await NestFactory.createApplicationContext(PlatformCoreModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    stderr.write(`${failureText(error)}\n`);
    await database.stop?.();
    return 1;
  }
  try {
    const { json, text } = await run(command, values, app.get(OperatorService));
    stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : text);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof DomainError) {
      stderr.write(
        `${error.code}${error.param ? ` (${error.param})` : ''}: ${error.hint ?? error.message}\n`,
      );
      return 1;
    }
    throw error;
  } finally {
    await app.close();
    await database.stop?.();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(failureText(error));
      process.exit(1);
    },
  );
}
