import { getMetadataStorage } from 'class-validator';

type Metadatas = unknown[];
type Target = abstract new (...args: never[]) => unknown;
type Grouped = Record<string, Metadatas>;

interface Storage {
  getTargetValidationMetadatas(
    target: Target,
    schema: string | undefined,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): Metadatas;
  groupByPropertyName(metadatas: Metadatas): Grouped;
}

const remembered = new WeakSet<object>();

/**
 * class-validator works out a class's rules on every validate() call: it filters its rule list
 * and walks every registered class to find the ancestors' (a few hundred DTOs here), then groups
 * the rules by property. The rules of a class are complete once its definition has run (an
 * ancestor is defined before it), and validation only starts after that, so the answer for a class
 * is worked out once and kept: for the pipe's calls (no schema, no groups, `always` and
 * `strictGroups` off), and grouped by property per answer. Calls with other options (the OpenAPI
 * builder's) go to class-validator as they are. The kept arrays are only read by class-validator
 * (grouping, whitelisting, validation), never changed.
 */
export function rememberValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (remembered.has(storage)) return;
  remembered.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const byClass = new WeakMap<Target, Metadatas>();
  const groupedOf = new WeakMap<Metadatas, Grouped>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (
      schema !== undefined ||
      always ||
      strictGroups ||
      (groups && groups.length > 0) ||
      typeof target !== 'function'
    )
      return lookup(target, schema, always, strictGroups, groups);
    let found = byClass.get(target);
    if (!found) byClass.set(target, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadatas) => {
    let grouped = groupedOf.get(metadatas);
    if (!grouped) groupedOf.set(metadatas, (grouped = group(metadatas)));
    return grouped;
  };
}
