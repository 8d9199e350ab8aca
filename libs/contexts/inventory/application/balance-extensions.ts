import { Injectable } from '@nestjs/common';
import type { BalanceResource } from './balance.presenter';

/** Extra fields another context adds to a retrieved balance (e.g. replenishment's demand figures). */
export type BalanceExtension = (balance: BalanceResource) => Promise<Record<string, unknown>>;

/**
 * Extension point of GET /inventory/balances/{id}: contexts register at start-up and the
 * retrieve merges their fields into the balance, so inventory does not depend on them.
 */
@Injectable()
export class BalanceExtensions {
  private readonly extensions: BalanceExtension[] = [];

  register(extension: BalanceExtension): void {
    this.extensions.push(extension);
  }

  async extend<T extends BalanceResource>(balance: T): Promise<T> {
    let result = balance;
    for (const extension of this.extensions) result = { ...result, ...(await extension(result)) };
    return result;
  }
}
