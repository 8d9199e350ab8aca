import { allowedFrom, nextState, transition, Transitions } from '#platform/domain/state-machine';
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
 * The package state machine (docs/api-decisions.md, Fulfillment, "Packages, labels, insurance and shipping"):
 *   packing --pack--> packed
 *   packing | packed --buy_label--> labeled
 *   packing | packed | labeled --ship--> shipped      (without a label: carrier and tracking by hand)
 *   shipped --deliver--> delivered
 *   packing | packed | labeled --void--> void         (a bought label is refunded)
 *   shipped | delivered --return--> returned          (once every unit came back)
 * Items and dimensions change (edit) while packing or packed.
 */
const TRANSITIONS: Transitions<PackageStatus, PackageAction> = {
  packing: { edit: 'packing', pack: 'packed', buy_label: 'labeled', ship: 'shipped', void: 'void' },
  packed: { edit: 'packed', buy_label: 'labeled', ship: 'shipped', void: 'void' },
  labeled: { ship: 'shipped', void: 'void' },
  shipped: { deliver: 'delivered', return: 'returned' },
  delivered: { return: 'returned' },
  returned: {},
  void: {},
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

export const packageAllowedFrom = (action: PackageAction): readonly PackageStatus[] =>
  allowedFrom(TRANSITIONS, action);

export const canMove = (action: PackageAction, status: PackageStatus): boolean =>
  nextState(TRANSITIONS, status, action) !== null;

/**
 * The status `action` leads the package to (edit keeps it); 409 invalid_state (the hint names the
 * current status) when `action` is not allowed now.
 */
export function packageTransition(action: PackageAction, status: PackageStatus, id?: string): PackageStatus {
  return transition(
    TRANSITIONS,
    status,
    action,
    (current, from) =>
      new FulfillmentError('invalid_state', {
        hint: `Package${id ? ` '${id}'` : ''} has status '${current}'; it can be ${VERB[action]} only when ${from
          .map((s) => `'${s}'`)
          .join(' or ')}.`,
      }),
  );
}
