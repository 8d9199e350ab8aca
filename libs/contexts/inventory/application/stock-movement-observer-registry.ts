import { Injectable } from '@nestjs/common';
import {
  AskedMovement,
  StockMovement,
  StockMovementObserver,
  StockMovementRecorder,
} from './stock-movements.types';

/** The observers of movements named in advance (StockMovementObserverRegistry.prepare). */
export interface PreparedObservers {
  /** Calls each observer's recorder with the rows being written, in registration order. */
  notify(movements: StockMovement[]): Promise<void>;
}

/**
 * Callbacks other contexts register at start-up (OnModuleInit). Inventory calls every observer
 * inside the transaction as it writes ledger rows (the statement writing them is on its way while
 * the observers run: an observer works from the movements it is given, never by reading
 * inventory's tables), so aggregates an observer keeps are current at commit; an observer that
 * throws rolls the movement back.
 */
@Injectable()
export class StockMovementObserverRegistry {
  private readonly observers: StockMovementObserver[] = [];

  /** Adds an observer; it is called with every batch of ledger rows, in the writing transaction. */
  register(observer: StockMovementObserver): void {
    this.observers.push(observer);
  }

  /**
   * Starts every observer's first step for `asked` at once (call it in the same turn as the
   * statement locking the balances: its reads share that round trip). A failed first step is
   * thrown by notify, and only if it is called.
   */
  prepare(asked: readonly AskedMovement[]): PreparedObservers {
    const started: Promise<StockMovementRecorder>[] =
      asked.length === 0 ? [] : this.observers.map((observer) => observer(asked));
    for (const recorder of started) recorder.catch(() => undefined);
    return {
      notify: async (movements) => {
        if (movements.length === 0) return;
        for (const recorder of started) await (await recorder)(movements);
      },
    };
  }

  /** Both steps of each observer, in registration order, for rows no plan named in advance. */
  async notify(movements: StockMovement[]): Promise<void> {
    await this.prepare(movements).notify(movements);
  }
}
