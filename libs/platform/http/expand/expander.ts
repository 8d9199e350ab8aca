import { PlatformError } from '../../errors/domain-error';
import { ApiObject, MAX_EXPAND_DEPTH, ResourceRegistry } from './expand-registry';

/** A tree of expansion paths: `lines.product` and `account` give { lines: { product: {} }, account: {} }. */
export type ExpandTree = Map<string, ExpandTree>;

const expandError = (index: number, hint: string) =>
  new PlatformError('invalid_expand', { param: `expand[${index}]`, hint }).asPreHandler();

const isObject = (v: unknown): v is ApiObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `expand[]` on any route marked with @ApiResource(): paths are checked before the handler runs
 * (`parse`); objects are loaded level by level with one batched query per path segment, so a
 * page of 100 with an expansion costs a constant number of queries (`expand`).
 */
export class Expander {
  constructor(private readonly registry: ResourceRegistry) {}

  /** The checked tree of `raw` (the query's `expand` value) on a route returning `resource`. */
  parse(raw: unknown, resource: string | undefined): ExpandTree {
    const paths = (Array.isArray(raw) ? raw : [raw]).map(String);
    const root: ExpandTree = new Map();
    paths.forEach((path, index) => {
      const segments = path.replace(/^data\./, '').split('.');
      if (!resource) throw expandError(index, 'This route returns nothing expandable.');
      if (path.trim() === '' || segments.some((s) => s === ''))
        throw expandError(index, `'${path}' is not a valid expand path.`);
      if (segments.length > MAX_EXPAND_DEPTH) {
        throw expandError(index, `'${path}' is deeper than ${MAX_EXPAND_DEPTH} levels.`);
      }
      let type = resource;
      let node = root;
      for (const segment of segments) {
        const field = this.registry.get(type)?.fields[segment];
        if (!field) throw expandError(index, `'${segment}' in '${path}' cannot be expanded on ${type}.`);
        type = field.resource;
        let child = node.get(segment);
        if (!child) node.set(segment, (child = new Map()));
        node = child;
      }
    });
    return root;
  }

  /** Expands a handler's answer in place: one object, or every item of a list envelope. */
  async expand(body: unknown, resource: string, tree: ExpandTree): Promise<void> {
    if (!isObject(body)) return;
    const items = body.object === 'list' && Array.isArray(body.data) ? (body.data as ApiObject[]) : [body];
    await this.expandLevel(items, resource, tree);
  }

  private async expandLevel(objects: ApiObject[], type: string, tree: ExpandTree): Promise<void> {
    const definition = this.registry.get(type);
    if (!definition) return;
    await Promise.all(
      [...tree.entries()].map(async ([segment, subtree]) => {
        const field = definition.fields[segment];
        if (field.kind === 'embedded') {
          const children = objects.flatMap((o) => {
            const value = o[segment];
            return Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
          });
          if (children.length > 0 && subtree.size > 0)
            await this.expandLevel(children, field.resource, subtree);
          return;
        }
        const ids = new Set<string>();
        for (const o of objects) {
          const value = o[field.source];
          for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') ids.add(id);
        }
        const load = this.registry.get(field.resource)?.load;
        const loaded = (ids.size > 0 && load ? await load([...ids]) : new Map()) as Map<string, ApiObject>;
        const expanded: ApiObject[] = [];
        for (const o of objects) {
          const value = o[field.source];
          const pick = (id: unknown) => {
            const found = typeof id === 'string' ? loaded.get(id) : undefined;
            if (!found) return id ?? null;
            const copy = { ...found };
            expanded.push(copy);
            return copy;
          };
          o[field.target] = Array.isArray(value) ? value.map(pick) : pick(value);
        }
        if (expanded.length > 0 && subtree.size > 0)
          await this.expandLevel(expanded, field.resource, subtree);
      }),
    );
  }
}
