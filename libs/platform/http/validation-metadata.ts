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
 * is worked out once and kept: for the pipe's calls (no groups, `always` and `strictGroups` off;
 * per schema name, which nested objects are given), and grouped by property per answer. Calls
 * with other options go to class-validator as they are. The kept arrays are only read by class-validator
 * (grouping, whitelisting, validation), never changed.
 */
export function rememberValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (remembered.has(storage)) return;
  remembered.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  // Per class, per schema name (undefined for none): a nested object is validated with its parent
  // class's name as schema, which selects nothing more where no schema is registered (none is).
  const byClass = new WeakMap<Target, Map<string | undefined, Metadatas>>();
  const groupedOf = new WeakMap<Metadatas, Grouped>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (always || strictGroups || (groups && groups.length > 0) || typeof target !== 'function')
      return lookup(target, schema, always, strictGroups, groups);
    let bySchema = byClass.get(target);
    if (!bySchema) byClass.set(target, (bySchema = new Map()));
    let found = bySchema.get(schema);
    if (!found) bySchema.set(schema, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadatas) => {
    let grouped = groupedOf.get(metadatas);
    if (!grouped) groupedOf.set(metadatas, (grouped = group(metadatas)));
    return grouped;
  };
}
