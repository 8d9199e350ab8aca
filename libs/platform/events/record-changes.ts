import { TenantRecord } from '../persistence/columns';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { EventPublisher } from './event-publisher';
import { previousAttributes } from './previous-attributes';

interface Change<E extends TenantRecord, R extends object> {
  /** The record as the API shows it. */
  present(record: E): R;
  /** The event published with the new representation. */
  event: string;
}

/**
 * Updates one record in a transaction: locks it, lets `apply` change it, and when the
 * representation changed saves it and publishes `event` with the previous attributes; an update
 * that changes nothing answers the record as it was, with no write and no event.
 */
export function updateRecord<E extends TenantRecord, R extends object>(
  tx: TransactionHost,
  events: EventPublisher,
  repo: TenantRepository<E>,
  id: string,
  change: Change<E, R> & { apply(record: E): void | Promise<void> },
): Promise<R> {
  return tx.run(async () => {
    const record = await repo.getForUpdate(id);
    const before = change.present(record);
    await change.apply(record);
    const previous = previousAttributes(before, change.present(record));
    if (Object.keys(previous).length === 0) return before;
    const resource = change.present(await repo.save(record));
    await events.publish(change.event, resource, previous);
    return resource;
  });
}

/**
 * Deletes one record for good in a transaction: locks it, lets `check` refuse, deletes it and
 * publishes `event` with its last representation; answers the contract's deletion object.
 */
export function deleteRecord<E extends TenantRecord, R extends object, O extends string>(
  tx: TransactionHost,
  events: EventPublisher,
  repo: TenantRepository<E>,
  id: string,
  change: Change<E, R> & { object: O; check?(record: E): Promise<void> },
): Promise<{ id: string; object: O; deleted: true }> {
  return tx.run(async () => {
    const record = await repo.getForUpdate(id);
    await change.check?.(record);
    const resource = change.present(record);
    await repo.delete(record);
    await events.publish(change.event, resource);
    return { id, object: change.object, deleted: true as const };
  });
}
