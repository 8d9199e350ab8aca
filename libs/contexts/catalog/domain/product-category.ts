import { CatalogError } from './catalog-error';

/**
 * A category may not become its own ancestor. `ancestorsOfParent` is the chain from the
 * proposed parent upwards (parent first).
 */
export function assertNoCycle(
  categoryId: string,
  parentId: string,
  ancestorsOfParent: readonly string[],
): void {
  if (parentId === categoryId || ancestorsOfParent.includes(categoryId)) {
    throw new CatalogError('parameter_invalid', {
      param: 'parent_id',
      hint: 'A category cannot be its own parent or the parent of one of its ancestors.',
    });
  }
}

/** Depth guard: category trees deeper than this are refused (and bound the ancestor walk). */
export const CATEGORY_MAX_DEPTH = 10;

export function assertDepth(ancestorsOfParent: readonly string[]): void {
  if (ancestorsOfParent.length + 2 > CATEGORY_MAX_DEPTH) {
    throw new CatalogError('parameter_invalid', {
      param: 'parent_id',
      hint: `Category trees are at most ${CATEGORY_MAX_DEPTH} levels deep.`,
    });
  }
}
