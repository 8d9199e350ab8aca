/**
 * The catalog of every event type. Each context declares the types it publishes (its
 * `<context>.events.ts`); the apps assemble the catalog once at start (registerEventTypes). The
 * first segment of every type is its family (`<family>.<verb>` or `<family>.<sub-resource>.<verb>`),
 * so `<family>.*` selects exactly the types that start with `<family>.`; `*` selects all.
 */
export interface EventTypeDefinition {
  type: string;
  family: string;
  description: string;
}

/** The definitions of event types, from `type: description` pairs; a type's family is its first segment. */
export const eventTypes = (types: Record<string, string>): EventTypeDefinition[] =>
  Object.entries(types).map(([type, description]) => ({ type, family: type.split('.')[0], description }));

const catalog: EventTypeDefinition[] = [];
const families: string[] = [];
const known = new Map<string, EventTypeDefinition>();

/** Every registered event type, by family in the order of the families, then as declared. */
export const EVENT_CATALOG: readonly EventTypeDefinition[] = catalog;
/** The families, in the order they were registered. */
export const EVENT_FAMILIES: readonly string[] = families;

/**
 * Adds the event types of the contexts: `familyOrder` lists the families in the order the
 * catalog presents them (every family of `types` must be in it). A type registered twice, or one
 * that does not start with its family, stops the process.
 */
export function registerEventTypes(
  familyOrder: readonly string[],
  types: readonly EventTypeDefinition[],
): void {
  for (const definition of types) {
    if (known.has(definition.type)) throw new Error(`Event type '${definition.type}' is registered twice`);
    if (definition.type.split('.')[0] !== definition.family || !familyOrder.includes(definition.family)) {
      throw new Error(
        `Event type '${definition.type}' does not belong to a listed family '${definition.family}'`,
      );
    }
    known.set(definition.type, definition);
  }
  for (const family of familyOrder) if (!families.includes(family)) families.push(family);
  const ordered = [...known.values()].sort((a, b) => families.indexOf(a.family) - families.indexOf(b.family));
  catalog.splice(0, catalog.length, ...ordered);
}

export const isKnownEventType = (type: string) => known.has(type);
export const eventTypeDefinition = (type: string) => known.get(type);
