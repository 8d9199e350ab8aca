import 'reflect-metadata';
import {
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  Module,
  NotFoundException,
  Param,
  Query,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import { Pool } from 'pg';
import { listEnvelope, listLimit, listSql, RETRIEVE_SQL, TagRow, toResource } from './tag-rows';

/**
 * Benchmark reference (BENCH_FLOOR=1): the least a NestJS application on platform-express can
 * do for the two tag routes. One controller, a guard that only checks for a Bearer header, no
 * middleware, interceptor, pipe or ORM, and the baseline's own `pg` query and JSON. What it
 * loses against the bare `http` baseline is the cost of Nest and Express alone, the ceiling
 * for any API built on them. Prints `{"port":n}` once it listens.
 */

const entityId = process.env.ENTITY_ID ?? '';
const livemode = process.env.LIVEMODE !== 'false';
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 20),
});

class BearerPresent implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    if (!header?.startsWith('Bearer ')) throw new UnauthorizedException();
    return true;
  }
}

@Controller('v1/tags')
@UseGuards(BearerPresent)
class TagsFloorController {
  @Get()
  async list(@Query('limit') limitParam?: string) {
    const limit = listLimit(limitParam);
    const { rows } = await pool.query<TagRow>(listSql(limit), [entityId, livemode]);
    return listEnvelope(rows, limit);
  }

  @Get(':id')
  async retrieve(@Param('id') id: string) {
    const { rows } = await pool.query<TagRow>(RETRIEVE_SQL, [id, entityId, livemode]);
    if (!rows[0]) throw new NotFoundException();
    return toResource(rows[0]);
  }
}

@Module({ controllers: [TagsFloorController] })
class FloorModule {}

async function main() {
  if (!process.env.DATABASE_URL || !entityId) throw new Error('DATABASE_URL and ENTITY_ID are required');
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
  const stop = () => void app.close().then(() => pool.end().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
