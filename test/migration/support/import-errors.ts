import type { api } from '../../support/http';

/** A row error of an import, as `GET .../imports/{id}/errors` lists it. */
export interface ListedRowError {
  row: number;
  external_id: string | null;
  error: { code: string; param?: string; hint: string; order_status?: string };
}

/** The row errors of an import (the first 100), read over HTTP from the imports path `importsPath`. */
export const importErrors = async (
  client: ReturnType<typeof api>,
  importsPath: string,
  importId: string,
): Promise<ListedRowError[]> =>
  (await client.get(`${importsPath}/${importId}/errors?limit=100`).expect(200)).body.data as ListedRowError[];

/** The same errors, each as [row, external_id, code, param]: what most assertions compare. */
export const rowErrorsOf = async (client: ReturnType<typeof api>, importsPath: string, importId: string) =>
  (await importErrors(client, importsPath, importId)).map((e) => [
    e.row,
    e.external_id,
    e.error.code,
    e.error.param,
  ]);
