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

/**
 * Benchmark reference (BENCH_FLOOR=1): the least a NestJS application on platform-express can
 * do for the two tag routes. One controller, a guard that only checks for a Bearer header, no
 * middleware, interceptor, pipe or ORM, and the baseline's own `pg` query and JSON. What it
 * loses against the bare `http` baseline is the cost of Nest and Express alone, the ceiling
 * for any API built on them. Prints `{"port":n}` once it listens.
 */

interface TagRow {
  id: string;
  name: string;
  color: string | null;
  livemode: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, color, livemode, created_at, updated_at';
const entityId = process.env.ENTITY_ID ?? '';
const livemode = process.env.LIVEMODE !== 'false';
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_MAX ?? 20),
});

const toResource = (row: TagRow) => ({
  id: row.id,
  object: 'tag',
  name: row.name,
  color: row.color,
  livemode: row.livemode,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
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
    const limit = Math.min(100, Math.max(1, Number(limitParam ?? 20) || 20));
    const { rows } = await pool.query<TagRow>(
      `SELECT ${COLUMNS} FROM tags WHERE entity_id = $1 AND livemode = $2 ORDER BY id DESC LIMIT ${limit + 1}`,
      [entityId, livemode],
    );
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { object: 'list', data: rows.map(toResource), has_more: hasMore, url: '/v1/tags' };
  }

  @Get(':id')
  async retrieve(@Param('id') id: string) {
    const { rows } = await pool.query<TagRow>(
      `SELECT ${COLUMNS} FROM tags WHERE id = $1 AND entity_id = $2 AND livemode = $3 LIMIT 1`,
      [id, entityId, livemode],
    );
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
