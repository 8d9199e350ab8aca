import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { mergeMap } from 'rxjs/operators';
import { PlatformError } from '../../errors/domain-error';
import { ApiObject, MAX_EXPAND_DEPTH, RESOURCE_KEY, ResourceRegistry } from './expand-registry';

/** A tree of expansion paths: `lines.product` and `account` give { lines: { product: {} }, account: {} }. */
type ExpandTree = Map<string, ExpandTree>;

const expandError = (index: number, hint: string) =>
  new PlatformError('invalid_expand', { param: `expand[${index}]`, hint }).asPreHandler();

const isObject = (v: unknown): v is ApiObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Resolves `expand[]` on any route marked with @ApiResource(). Paths are checked before the
 * handler runs; objects are loaded level by level with one batched query per path segment,
 * so a page of 100 with an expansion costs a constant number of queries.
 */
@Injectable()
export class ExpandInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const raw = (req.query as Record<string, unknown>).expand;
    if (raw === undefined) return next.handle();
    const paths = (Array.isArray(raw) ? raw : [raw]).map(String);
    const resource = this.reflector.getAllAndOverride<string | undefined>(RESOURCE_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const tree = this.validate(paths, resource);
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        if (!isObject(body) || !resource) return body;
        const items =
          body.object === 'list' && Array.isArray(body.data) ? (body.data as ApiObject[]) : [body];
        await this.expandLevel(items, resource, tree);
        return body;
      }),
    );
  }

  private validate(paths: string[], resource: string | undefined): ExpandTree {
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
