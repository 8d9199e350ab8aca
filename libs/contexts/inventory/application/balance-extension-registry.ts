import { Injectable } from '@nestjs/common';
import type { BalanceResource } from './balance.presenter';

/** Extra fields another context adds to a retrieved balance (e.g. replenishment's demand figures). */
export type BalanceExtension = (balance: BalanceResource) => Promise<Record<string, unknown>>;

/**
 * Extra fields another context adds to a page of balances: one answer per balance, in order,
 * read for the whole page at once (never a read per row).
 */
export type BalanceListExtension = (
  balances: readonly BalanceResource[],
) => Promise<readonly Record<string, unknown>[]>;

/**
 * Extension point of GET /inventory/balances/{id} and GET /inventory/balances: contexts register
 * at start-up and the retrieve (or the list) merges their fields into each balance, so inventory
 * does not depend on them.
 */
@Injectable()
export class BalanceExtensionRegistry {
  private readonly extensions: BalanceExtension[] = [];
  private readonly listExtensions: BalanceListExtension[] = [];

  register(extension: BalanceExtension): void {
    this.extensions.push(extension);
  }

  registerList(extension: BalanceListExtension): void {
    this.listExtensions.push(extension);
  }

  async extend<T extends BalanceResource>(balance: T): Promise<T> {
    let result = balance;
    for (const extension of this.extensions) result = { ...result, ...(await extension(result)) };
    return result;
  }

  async extendPage<T extends BalanceResource>(balances: T[]): Promise<T[]> {
    if (balances.length === 0) return balances;
    let result = balances;
    for (const extension of this.listExtensions) {
      const extra = await extension(result);
      result = result.map((balance, i) => ({ ...balance, ...extra[i] }));
    }
    return result;
  }
}
