import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../persistence/transaction-host';
import { eventCoverage } from './event-coverage';
import { insertOutboxRows, outboxRow, OutboxRow } from './outbox-writer';

export { API_VERSION } from './outbox-writer';
export type { OutboxRow } from './outbox-writer';

/** The key of the open transaction's outbox rows (TransactionHost.gather). */
const OUTBOX_ROWS = {};

/**
 * Writes domain events to the outbox inside the caller's transaction. Nothing is published
 * before commit: the dispatcher reads committed rows only. Every outbox row is shaped and
 * inserted by the outbox writer (outbox-writer.ts).
 */
@Injectable()
export class EventPublisher {
  constructor(private readonly tx: TransactionHost) {}

  /** Records `type` with the full resource as it is now. Must run inside TransactionHost.run(). */
  async publish(
    type: string,
    object: unknown,
    previousAttributes?: Record<string, unknown>,
  ): Promise<string> {
    const row = this.row(type, object, previousAttributes);
    await this.write([row]);
    return row.id;
  }

  /**
   * The outbox row publish() would write, for a writer that inserts it in its own statement
   * (together with the resource's rows, in the same transaction). Checks the type the same way.
   */
  outboxRow(type: string, object: unknown, previousAttributes?: Record<string, unknown>): OutboxRow {
    return this.row(type, object, previousAttributes);
  }

  /**
   * Records several events with one multi-row INSERT (bulk writes such as imports); the same
   * rules as publish(): every type must be in the catalog, inside TransactionHost.run().
   * Returns the event ids in order.
   */
  async publishMany(
    events: readonly { type: string; object: unknown; previousAttributes?: Record<string, unknown> }[],
  ): Promise<string[]> {
    const rows = this.outboxRows(events);
    await this.write(rows);
    return rows.map((r) => r.id);
  }

  /**
   * The outbox rows publishMany() would write, for a writer that inserts them in its own
   * statement (together with the resource's rows, in the same transaction). One write, one time:
   * every row carries the same created_at.
   */
  outboxRows(
    events: readonly { type: string; object: unknown; previousAttributes?: Record<string, unknown> }[],
  ): OutboxRow[] {
    const createdAt = new Date();
    return events.map((e) => ({ ...this.row(e.type, e.object, e.previousAttributes), createdAt }));
  }

  /**
   * Adds rows shaped by outboxRow() (possibly with `dispatchedAt` set) to the open transaction's
   * outbox rows, which one INSERT writes just before COMMIT: a request that publishes several
   * events (or several contexts' events) pays one statement. The fan-out reads rows in id order,
   * and ids are made at publish time, so the order of events does not change.
   */
  async write(rows: readonly OutboxRow[]): Promise<void> {
    this.tx
      .gather<OutboxRow>(OUTBOX_ROWS, (pending, query) => insertOutboxRows(query, pending))
      .push(...rows);
  }

  /**
   * For a writer that commits rows built by outboxRow() outside TransactionHost.run(), in a
   * statement of its own (a journal entry written on its own): called once that statement has
   * committed them, in the async context that built them. Only a test run's event coverage
   * reads it.
   */
  committedOutside(rows: readonly OutboxRow[]): void {
    if (!eventCoverage.on) return;
    const origin = eventCoverage.origin();
    for (const row of rows) eventCoverage.committed(row.id, row.type, origin);
  }

  /**
   * Every outbox row is built here. While a test run records event coverage (event-coverage.ts),
   * its type is recorded once its transaction commits, with the product route or job building it.
   */
  private row(type: string, object: unknown, previousAttributes?: Record<string, unknown>): OutboxRow {
    const row = outboxRow(type, object, previousAttributes);
    if (eventCoverage.on && this.tx.inTransaction) {
      const origin = eventCoverage.origin();
      this.tx.afterCommit(() => eventCoverage.committed(row.id, row.type, origin));
    }
    return row;
  }
}
