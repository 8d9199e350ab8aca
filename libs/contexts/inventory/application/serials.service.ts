import { Injectable, OnModuleInit } from '@nestjs/common';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryError } from '../domain/inventory-error';
import { SerialAction, SerialStatus, serialTransition, stampsOf } from '../domain/serial';
import { SerialNumberRecord } from '../infrastructure/inventory.entities';
import { SerialFilters, SerialNumberRepository } from '../infrastructure/serial-number.repository';
import { SerialResource, toSerialResource } from './serial.presenter';

export interface SerialChanges {
  status?: SerialStatus;
  lot_number?: string | null;
  expiry_date?: string | null;
  warranty_start_date?: string | null;
  warranty_end_date?: string | null;
  extended_warranty_end_date?: string | null;
  warranty_status?: string | null;
}

/** The statuses PATCH may ask for, and the action that reaches each. */
const PATCH_ACTIONS: Partial<Record<SerialStatus, SerialAction>> = {
  available: 'restock',
  damaged: 'damage',
  quarantined: 'quarantine',
};

export interface SerialListQuery extends SerialFilters {
  page: number;
  perPage: number;
}

/** Serial number records: creation on receipt, status moves through the domain state machine, the numbered list. */
@Injectable()
export class SerialsService implements OnModuleInit {
  constructor(
    private readonly resources: ResourceRegistry,
    private readonly tx: TransactionHost,
    private readonly serials: SerialNumberRepository,
    private readonly events: EventPublisher,
  ) {}

  onModuleInit(): void {
    this.resources.register({
      name: 'serial_number',
      fields: {},
      load: async (ids) =>
        new Map((await this.serials.findByIds(ids)).map((r) => [r.id, toSerialResource(r)])),
    });
  }

  /** The serial list's numbered page: object, data, total, page, per_page, total_pages. */
  async list(query: SerialListQuery) {
    const { rows, total } = await this.serials.numberedPage(query, query.page, query.perPage);
    return {
      object: 'list' as const,
      data: rows.map(toSerialResource),
      total,
      page: query.page,
      per_page: query.perPage,
      total_pages: Math.ceil(total / query.perPage),
    };
  }

  async retrieve(id: string): Promise<SerialResource> {
    return toSerialResource(await this.serials.getById(id));
  }

  /**
   * Updates descriptive fields and, with `status`, moves a returned, damaged or quarantined unit
   * to `available`, `damaged` or `quarantined` through the state machine (409 invalid_state naming
   * the current status otherwise). Other statuses follow the operations that move stock.
   */
  async update(id: string, changes: SerialChanges): Promise<SerialResource> {
    return this.tx.run(async () => {
      const record = await this.serials.getForUpdate(id);
      const previous = toSerialResource(record);
      if (changes.status !== undefined) {
        const action = PATCH_ACTIONS[changes.status];
        if (!action)
          throw new InventoryError('parameter_invalid', {
            param: 'status',
            hint: `status '${changes.status}' is reached through stock operations (allocation, shipment, return, adjustment, build), not set directly; PATCH moves a unit to available, damaged or quarantined.`,
          });
        if (record.status !== changes.status) await this.apply(record, action, {});
      }
      const fields: [keyof SerialChanges, keyof SerialNumberRecord][] = [
        ['lot_number', 'lotNumber'],
        ['expiry_date', 'expiryDate'],
        ['warranty_start_date', 'warrantyStartDate'],
        ['warranty_end_date', 'warrantyEndDate'],
        ['extended_warranty_end_date', 'extendedWarrantyEndDate'],
        ['warranty_status', 'warrantyStatus'],
      ];
      let touched = false;
      for (const [field, column] of fields) {
        if (changes[field] === undefined) continue;
        (record as unknown as Record<string, unknown>)[column] = changes[field];
        touched = true;
      }
      if (!touched) return toSerialResource(record);
      const saved = await this.serials.save(record);
      const resource = toSerialResource(saved);
      const changed = Object.fromEntries(
        (Object.keys(previous) as (keyof SerialResource)[])
          .filter((k) => k !== 'updated_at' && k !== 'status' && previous[k] !== resource[k])
          .map((k) => [k, previous[k]]),
      );
      if (Object.keys(changed).length)
        await this.events.publish('inventory.serial.updated', resource, changed);
      return resource;
    });
  }

  /** Creates `available` records for received units; 422 serial_duplicate (param names the entry) when one exists. */
  async receive(input: {
    productId: string;
    variantId: string | null;
    locationId: string;
    serialNumbers: string[];
    lotNumber?: string | null;
    orderId?: string | null;
    param: string;
  }): Promise<SerialNumberRecord[]> {
    const existing = await this.serials.forProductForUpdate(input.productId, input.serialNumbers);
    input.serialNumbers.forEach((s, i) => {
      if (existing.has(s))
        throw new InventoryError('serial_duplicate', {
          param: `${input.param}[${i}]`,
          hint: `Serial number '${s}' already exists for product '${input.productId}' (status '${existing.get(s)!.status}').`,
        });
    });
    const now = new Date();
    const created = await this.serials.createMany(
      input.serialNumbers.map((serialNumber) => ({
        productId: input.productId,
        variantId: input.variantId,
        serialNumber,
        status: 'available',
        locationId: input.locationId,
        orderId: input.orderId ?? null,
        orderItemId: null,
        lotNumber: input.lotNumber ?? null,
        expiryDate: null,
        warrantyStartDate: null,
        warrantyEndDate: null,
        extendedWarrantyEndDate: null,
        warrantyStatus: null,
        receivedAt: now,
        soldAt: null,
        returnedAt: null,
        lastScannedAt: now,
      })),
    );
    for (const s of created) await this.events.publish('inventory.serial.created', toSerialResource(s));
    return created;
  }

  /**
   * Moves serials of a product through `action` (409 invalid_state naming the current status of
   * the first that cannot); a serial that does not exist is 400 on its entry of `param`.
   * `expectAt` refuses serials held at another location.
   */
  async move(input: {
    productId: string;
    serialNumbers: string[];
    action: SerialAction;
    param: string;
    orderId?: string | null;
    orderItemId?: string | null;
    locationId?: string | null;
    expectAt?: string;
  }): Promise<SerialNumberRecord[]> {
    return this.tx.run(async () => {
      const found = await this.serials.forProductForUpdate(input.productId, input.serialNumbers);
      const moved: SerialNumberRecord[] = [];
      for (const [i, serialNumber] of input.serialNumbers.entries()) {
        const record = found.get(serialNumber);
        if (!record)
          throw new InventoryError('parameter_invalid', {
            param: `${input.param}[${i}]`,
            hint: `No serial number '${serialNumber}' exists for product '${input.productId}'.`,
          });
        if (input.expectAt && record.locationId !== input.expectAt)
          throw new InventoryError('parameter_invalid', {
            param: `${input.param}[${i}]`,
            hint: `Serial number '${serialNumber}' is held at location '${record.locationId}', not '${input.expectAt}'.`,
          });
        moved.push(await this.apply(record, input.action, input));
      }
      return moved;
    });
  }

  /** One transition of one record, stamped and announced (inventory.serial.updated). */
  async apply(
    record: SerialNumberRecord,
    action: SerialAction,
    context: { orderId?: string | null; orderItemId?: string | null; locationId?: string | null },
  ): Promise<SerialNumberRecord> {
    const previous = toSerialResource(record);
    const to: SerialStatus = serialTransition(action, {
      serialNumber: record.serialNumber,
      status: record.status as SerialStatus,
    });
    const now = new Date();
    record.status = to;
    for (const stamp of stampsOf(to)) {
      if (stamp === 'sold_at') record.soldAt = now;
      if (stamp === 'returned_at') record.returnedAt = now;
    }
    record.lastScannedAt = now;
    if (context.orderId !== undefined && context.orderId !== null) record.orderId = context.orderId;
    if (action === 'allocate') record.orderItemId = context.orderItemId ?? null;
    if (action === 'deallocate') record.orderItemId = null;
    if (context.locationId !== undefined && context.locationId !== null)
      record.locationId = context.locationId;
    const saved = await this.serials.save(record);
    const resource = toSerialResource(saved);
    const changed = Object.fromEntries(
      (Object.keys(previous) as (keyof SerialResource)[])
        .filter((k) => k !== 'updated_at' && previous[k] !== resource[k])
        .map((k) => [k, previous[k]]),
    );
    await this.events.publish('inventory.serial.updated', resource, changed);
    return saved;
  }

  /** Moves a serial to another location without changing its status (a transfer). */
  async relocate(record: SerialNumberRecord, locationId: string): Promise<SerialNumberRecord> {
    const previous = {
      location_id: record.locationId,
      last_scanned_at: record.lastScannedAt?.toISOString() ?? null,
    };
    record.locationId = locationId;
    record.lastScannedAt = new Date();
    const saved = await this.serials.save(record);
    await this.events.publish('inventory.serial.updated', toSerialResource(saved), previous);
    return saved;
  }

  /** The serials allocated to an order (optionally one line), locked. */
  ofOrder(orderId: string, orderItemId?: string): Promise<SerialNumberRecord[]> {
    return this.serials.ofOrder(orderId, orderItemId);
  }

  /** Locked records of these serial numbers of a product, keyed by number. */
  find(productId: string, serialNumbers: string[]): Promise<Map<string, SerialNumberRecord>> {
    return this.serials.forProductForUpdate(productId, serialNumbers);
  }
}
