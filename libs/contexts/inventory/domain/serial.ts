import { nextState, transition, Transitions } from '#platform/domain/state-machine';
import { InventoryError } from './inventory-error';

/** The serial number statuses. */
export const SERIAL_STATUSES = [
  'available',
  'allocated',
  'sold',
  'returned',
  'damaged',
  'quarantined',
  'end_of_life',
  'consumed_in_manufacturing',
  'disassembled',
] as const;
export type SerialStatus = (typeof SERIAL_STATUSES)[number];

export const SERIAL_ACTIONS = [
  'allocate',
  'deallocate',
  'sell',
  'return',
  'restock',
  'damage',
  'quarantine',
  'retire',
  'consume',
  'disassemble',
] as const;
export type SerialAction = (typeof SERIAL_ACTIONS)[number];

/**
 * The serial state machine (docs/api-decisions.md, Inventory, "Serial numbers"):
 *   available --allocate--> allocated --sell--> sold --return--> returned
 *   allocated --deallocate--> available (order line released or cancelled)
 *   returned --restock--> available | --damage--> damaged | --quarantine--> quarantined
 *   damaged | quarantined --restock--> available
 *   any in-stock status --retire--> end_of_life
 *   available --consume--> consumed_in_manufacturing (a build)
 *   available | returned --disassemble--> disassembled
 */
const TRANSITIONS: Transitions<SerialStatus, SerialAction> = {
  available: {
    allocate: 'allocated',
    retire: 'end_of_life',
    consume: 'consumed_in_manufacturing',
    disassemble: 'disassembled',
  },
  allocated: { deallocate: 'available', sell: 'sold', retire: 'end_of_life' },
  sold: { return: 'returned' },
  returned: {
    restock: 'available',
    damage: 'damaged',
    quarantine: 'quarantined',
    retire: 'end_of_life',
    disassemble: 'disassembled',
  },
  damaged: { restock: 'available', retire: 'end_of_life' },
  quarantined: { restock: 'available', retire: 'end_of_life' },
  end_of_life: {},
  consumed_in_manufacturing: {},
  disassembled: {},
};

const VERB: Record<SerialAction, string> = {
  allocate: 'allocated',
  deallocate: 'deallocated',
  sell: 'sold',
  return: 'returned',
  restock: 'made available again',
  damage: 'marked damaged',
  quarantine: 'quarantined',
  retire: 'retired (end_of_life)',
  consume: 'consumed in manufacturing',
  disassemble: 'disassembled',
};

export const canTransition = (action: SerialAction, status: SerialStatus): boolean =>
  nextState(TRANSITIONS, status, action) !== null;

/** The status `action` leads to; 409 invalid_state naming the current status when it is not allowed from it. */
export function serialTransition(
  action: SerialAction,
  serial: { serialNumber: string; status: SerialStatus },
): SerialStatus {
  return transition(
    TRANSITIONS,
    serial.status,
    action,
    (status, from) =>
      new InventoryError('invalid_state', {
        hint: `Serial '${serial.serialNumber}' has status '${status}'; it can be ${VERB[action]} only when ${from.map((s) => `'${s}'`).join(' or ')}.`,
        details: { status },
      }),
  );
}

/** Which dates a move stamps. */
export function stampsOf(to: SerialStatus): ('sold_at' | 'returned_at')[] {
  if (to === 'sold') return ['sold_at'];
  if (to === 'returned') return ['returned_at'];
  return [];
}

/** Serial numbers of one request: one per unit, no repeats (422 serial_duplicate with the param of the repeat). */
export function assertSerialsForQuantity(
  serials: readonly string[] | undefined,
  quantity: number,
  param: string,
  productId: string,
): string[] {
  const list = [...(serials ?? [])];
  if (list.length !== Math.abs(quantity)) {
    throw new InventoryError('parameter_invalid', {
      param,
      hint: `Product '${productId}' is serial-tracked: send one serial number per unit (${Math.abs(quantity)}), got ${list.length}.`,
    });
  }
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s))
      throw new InventoryError('serial_duplicate', {
        param: `${param}[${i}]`,
        hint: `Serial number '${s}' is listed twice.`,
      });
    seen.add(s);
  });
  return list;
}
