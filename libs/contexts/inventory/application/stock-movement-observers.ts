import { Injectable } from '@nestjs/common';
import { StockMovement, StockMovementObserver } from './stock-movements.types';

/**
 * Callbacks other contexts register at start-up (OnModuleInit). Inventory calls every observer
 * inside the transaction as it writes ledger rows (the statement writing them is on its way while
 * the observers run: an observer works from the movements it is given, never by reading
 * inventory's tables), so aggregates an observer keeps are current at commit; an observer that
 * throws rolls the movement back.
 */
@Injectable()
export class StockMovementObservers {
  private readonly observers: StockMovementObserver[] = [];

  /** Adds an observer; it is called with every batch of ledger rows, in the writing transaction. */
  register(observer: StockMovementObserver): void {
    this.observers.push(observer);
  }

  /** Calls each observer in registration order. */
  async notify(movements: StockMovement[]): Promise<void> {
    if (movements.length === 0) return;
    for (const observer of this.observers) await observer(movements);
  }
}
