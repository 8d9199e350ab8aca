import { ReplenishmentError } from './replenishment-error';

/** Components per kit: whole units, at most this many per kit line. */
export const MAX_QUANTITY_PER_KIT = 1_000_000;

/** Only kits have components: a bill of materials belongs to a product of type `kit`. */
export function assertKitParent(product: { id: string; type: string }): void {
  if (product.type !== 'kit') {
    throw new ReplenishmentError('invalid_state', {
      hint: `Product '${product.id}' is of type ${product.type}; only products of type kit have components.`,
    });
  }
}

/**
 * Refuses a component edge kit -> component that would close a cycle: the component may not be
 * the kit itself, nor a kit that (transitively) contains the kit. `childrenOf` gives the
 * current components of a product.
 */
export function assertNoCycle(
  kitId: string,
  componentId: string,
  childrenOf: (productId: string) => readonly string[],
  param = 'component_product_id',
): void {
  const stack = [componentId];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === kitId) {
      throw new ReplenishmentError('parameter_invalid', {
        param,
        hint:
          componentId === kitId
            ? 'A kit cannot be its own component.'
            : `Product '${componentId}' contains kit '${kitId}'; adding it as a component would make a cycle.`,
      });
    }
    if (seen.has(current)) continue;
    seen.add(current);
    stack.push(...childrenOf(current));
  }
}
