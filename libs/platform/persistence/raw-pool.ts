import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * The `pg` pool under TypeORM, for the few statements on every request's hot path (key
 * lookup, rate-limit counter) where TypeORM's query runner costs more than the query.
 */
export function rawPool(dataSource: DataSource): Pool {
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('The data source is not initialized');
  return pool;
}
