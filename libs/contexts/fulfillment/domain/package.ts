import { FulfillmentError } from './fulfillment-error';

/** The package statuses. */
export const PACKAGE_STATUSES = [
  'packing',
  'packed',
  'labeled',
  'shipped',
  'delivered',
  'returned',
  'void',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** The statuses whose items take units of the order's lines: every one but void. */
export const UNIT_HOLDING_STATUSES: readonly PackageStatus[] = PACKAGE_STATUSES.filter((s) => s !== 'void');

export type PackageAction = 'edit' | 'pack' | 'buy_label' | 'ship' | 'deliver' | 'void' | 'return';

/**
 * The package state machine (docs/api-decisions.md, "Fulfillment: packages"):
 *   packing --pack--> packed
 *   packing | packed --buy_label--> labeled
 *   packing | packed | labeled --ship--> shipped      (without a label: carrier and tracking by hand)
 *   shipped --deliver--> delivered
 *   packing | packed | labeled --void--> void         (a bought label is refunded)
 *   shipped | delivered --return--> returned          (once every unit came back)
 * Items and dimensions change while packing or packed.
 */
const FROM: Record<PackageAction, readonly PackageStatus[]> = {
  edit: ['packing', 'packed'],
  pack: ['packing'],
  buy_label: ['packing', 'packed'],
  ship: ['packing', 'packed', 'labeled'],
  deliver: ['shipped'],
  void: ['packing', 'packed', 'labeled'],
  return: ['shipped', 'delivered'],
};

const TO: Record<Exclude<PackageAction, 'edit'>, PackageStatus> = {
  pack: 'packed',
  buy_label: 'labeled',
  ship: 'shipped',
  deliver: 'delivered',
  void: 'void',
  return: 'returned',
};

const VERB: Record<PackageAction, string> = {
  edit: 'changed',
  pack: 'packed',
  buy_label: 'labeled',
  ship: 'shipped',
  deliver: 'delivered',
  void: 'voided',
  return: 'returned',
};

export const allowedFrom = (action: PackageAction): readonly PackageStatus[] => FROM[action];

export const canMove = (action: PackageAction, status: PackageStatus): boolean =>
  FROM[action].includes(status);

/** Throws 409 invalid_state (the hint names the current status) when `action` is not allowed now. */
export function assertTransition(action: PackageAction, status: PackageStatus, id?: string): void {
  if (canMove(action, status)) return;
  throw new FulfillmentError('invalid_state', {
    hint: `Package${id ? ` '${id}'` : ''} has status '${status}'; it can be ${VERB[action]} only when ${FROM[
      action
    ]
      .map((s) => `'${s}'`)
      .join(' or ')}.`,
  });
}

/** The status an action leads to (after assertTransition). */
export const nextStatus = (action: Exclude<PackageAction, 'edit'>): PackageStatus => TO[action];

/** A non-void package still holds its units against the order lines (void releases them). */
export const holdsUnits = (status: PackageStatus): boolean => status !== 'void';
