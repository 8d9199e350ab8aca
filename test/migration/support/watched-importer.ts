import type { INestApplicationContext } from '@nestjs/common';
import { Importer, ImportRegistry } from '#platform/imports/import-registry';

/**
 * Runs `work` (an import) with the worker's importer of `resource` watched, and answers what it
 * returned with the sizes of the bulk creates (`createMany`) and the number of records created
 * or updated one by one (`upsert`). A bulk path that fails is redone row by row with the same
 * outcome, so only this tells that the bulk path ran.
 */
export async function watchImporter<T>(
  worker: INestApplicationContext,
  resource: string,
  work: () => Promise<T>,
): Promise<{ result: T; bulkSizes: number[]; upserts: number }> {
  const importer = worker.get(ImportRegistry).get(resource) as Required<Importer>;
  const createMany = jest.spyOn(importer, 'createMany');
  const upsert = jest.spyOn(importer, 'upsert');
  try {
    const result = await work();
    return {
      result,
      bulkSizes: createMany.mock.calls.map(([inputs]) => inputs.length),
      upserts: upsert.mock.calls.length,
    };
  } finally {
    createMany.mockRestore();
    upsert.mockRestore();
  }
}
