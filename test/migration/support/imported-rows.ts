import { ProductRepository, ProductVariantRepository, TagRepository } from '#contexts/catalog';
import { AccountRepository, OrderRepository } from '#contexts/sales';
import { TenantRecord } from '#platform/persistence/columns';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ImportBatchRepository } from '#contexts/migration';
import { asEntity } from '../../support/as-entity';
import type { TestApp } from '../../support/test-app';

/**
 * What a bulk import left behind, read through the owning contexts' repositories as the primary
 * entity in live mode: the list routes do not filter by name or SKU prefix, and paging through
 * thousands of imported rows to count them would dwarf the import itself.
 */
type Owner = abstract new (...args: never[]) => TenantRepository<TenantRecord>;

function valuesStartingWith(app: TestApp, owner: Owner, column: 'name' | 'sku', prefix: string) {
  return asEntity(app, async () => {
    const rows = await app
      .get(owner)
      .scopedQuery('r')
      .select(`r.${column}`, 'value')
      .andWhere(`r.${column} LIKE :prefix`, { prefix: `${prefix}%` })
      .getRawMany<{ value: string }>();
    return rows.map((r) => r.value);
  });
}

/** The names of the tags whose name starts with `prefix`. */
export const tagNames = (app: TestApp, prefix: string) =>
  valuesStartingWith(app, TagRepository, 'name', prefix);

/** The names of the accounts whose name starts with `prefix`. */
export const accountNames = (app: TestApp, prefix: string) =>
  valuesStartingWith(app, AccountRepository, 'name', prefix);

/** The SKUs of the products whose SKU starts with `prefix`. */
export const productSkus = (app: TestApp, prefix: string) =>
  valuesStartingWith(app, ProductRepository, 'sku', prefix);

/** The SKUs of the product variants whose SKU starts with `prefix`. */
export const variantSkus = (app: TestApp, prefix: string) =>
  valuesStartingWith(app, ProductVariantRepository, 'sku', prefix);

/** How many orders of every document type an account has (the list route shows only some types). */
export const orderCountOf = (app: TestApp, accountId: string) =>
  asEntity(app, () =>
    app.get(OrderRepository).scopedQuery('o').andWhere('o.account_id = :accountId', { accountId }).getCount(),
  );

/**
 * The resources the imports of the entity mapped to these external ids of `resource`, as the import
 * itself reads them (ImportBatchRepository, which locks the row of `importId`, an import of the
 * entity, in a transaction of its own): the mappings have no route.
 */
export const mappedExternalIds = async (
  app: TestApp,
  importId: string,
  resource: string,
  externalIds: string[],
): Promise<Map<string, string>> =>
  (
    await asEntity(app, () =>
      app
        .get(TransactionHost)
        .run(() =>
          app
            .get(ImportBatchRepository)
            .lockCheckpointAndMappings(
              { id: importId, entityId: app.seed.entities.primary.id, livemode: true, resource },
              externalIds,
            ),
        ),
    )
  ).mapped;
