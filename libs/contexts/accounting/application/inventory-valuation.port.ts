import { Injectable } from '@nestjs/common';

/**
 * What accounting needs from the stock records: the inventory subledger (the sum of the
 * balances' values). The inventory context implements it and registers it at start-up, so
 * accounting never reads inventory tables and the two modules do not import each other.
 */
export interface InventoryValuationPort {
  /** The value of all stock of the caller's entity and mode now, as a decimal string. */
  totalValue(): Promise<string>;
}

/** Holds the registered InventoryValuationPort; without one the inventory subledger is 0. */
@Injectable()
export class InventoryValuationRegistry {
  private implementation?: InventoryValuationPort;

  register(implementation: InventoryValuationPort): void {
    this.implementation = implementation;
  }

  get port(): InventoryValuationPort | undefined {
    return this.implementation;
  }
}
