/** The tag query and JSON that the two reference servers (baseline, minimal Nest app) share. */

export interface TagRow {
  id: string;
  name: string;
  color: string | null;
  livemode: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, color, livemode, created_at, updated_at';

export const RETRIEVE_SQL = `SELECT ${COLUMNS} FROM tags WHERE id = $1 AND entity_id = $2 AND livemode = $3 LIMIT 1`;

/** The list query for `limit` rows (one more is read to know whether there are more). */
export const listSql = (limit: number) =>
  `SELECT ${COLUMNS} FROM tags WHERE entity_id = $1 AND livemode = $2 ORDER BY id DESC LIMIT ${limit + 1}`;

/** `?limit=` as the API reads it: 1 to 100, default 20. */
export const listLimit = (value: string | null | undefined) =>
  Math.min(100, Math.max(1, Number(value ?? 20) || 20));

export const toResource = (row: TagRow) => ({
  id: row.id,
  object: 'tag',
  name: row.name,
  color: row.color,
  livemode: row.livemode,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The list envelope of `rows` read with listSql(limit). */
export function listEnvelope(rows: TagRow[], limit: number) {
  const hasMore = rows.length > limit;
  return { object: 'list', data: rows.slice(0, limit).map(toResource), has_more: hasMore, url: '/v1/tags' };
}
