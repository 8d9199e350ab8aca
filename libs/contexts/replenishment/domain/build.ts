import { transition, Transitions } from '#platform/domain/state-machine';
import { ReplenishmentError } from './replenishment-error';

/**
 * Builds (assembly of a kit from its components):
 *   draft --post--> posted   (components consumed, kit added, journal entry posted)
 *   draft --void--> voided   (nothing ever moved)
 * A posted build is final; a correction is an adjustment or a new build.
 */
export const BUILD_STATUSES = ['draft', 'posted', 'voided'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];
export type BuildAction = 'post' | 'void';

const TRANSITIONS: Transitions<BuildStatus, BuildAction> = {
  draft: { post: 'posted', void: 'voided' },
  posted: {},
  voided: {},
};

/** The status `action` leads the build to; 409 invalid_state naming the current status when it is not a draft. */
export function buildTransition(
  action: BuildAction,
  build: { id: string; status: BuildStatus },
): BuildStatus {
  return transition(
    TRANSITIONS,
    build.status,
    action,
    (status) =>
      new ReplenishmentError('invalid_state', {
        hint: `Build '${build.id}' is ${status}; only draft builds can be ${action === 'post' ? 'posted' : 'voided'}.`,
      }),
  );
}

/** Component draws of a build: quantity per kit × kits built, per component. */
export function componentDraws(
  quantity: number,
  components: readonly { componentProductId: string; quantity: number }[],
): { productId: string; quantity: number }[] {
  return components.map((c) => ({ productId: c.componentProductId, quantity: c.quantity * quantity }));
}
