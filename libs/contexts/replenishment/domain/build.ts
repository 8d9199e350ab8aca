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

export function assertBuildTransition(action: BuildAction, build: { id: string; status: BuildStatus }): void {
  if (build.status !== 'draft') {
    throw new ReplenishmentError('invalid_state', {
      hint: `Build '${build.id}' is ${build.status}; only draft builds can be ${action === 'post' ? 'posted' : 'voided'}.`,
    });
  }
}

export const nextStatus = (action: BuildAction): BuildStatus => (action === 'post' ? 'posted' : 'voided');

/** Component draws of a build: quantity per kit × kits built, per component. */
export function componentDraws(
  quantity: number,
  components: readonly { componentProductId: string; quantity: number }[],
): { productId: string; quantity: number }[] {
  return components.map((c) => ({ productId: c.componentProductId, quantity: c.quantity * quantity }));
}
