import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { match, MatchFunction } from 'path-to-regexp';
import { PUBLIC_KEY, SCOPES_KEY } from '../auth/decorators';

/** A path segment decoded, or as sent when it is not valid percent-encoding (matching never throws). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const API_PREFIX = '/v1';
/** First path segments of operational routes served outside the versioned prefix. */
export const UNVERSIONED_CONTROLLERS = ['health', 'ready', 'docs'];

export interface RouteInfo {
  method: string;
  /** Full path pattern, e.g. `/v1/tags/:id`. */
  path: string;
  scopes: string[] | null;
  public: boolean;
  /**
   * The collection the route acts on: the last static segment of the controller's first
   * (canonical) path (`tags`, `api_keys`, `imports`), the same for every path it is served at.
   */
  resourceType: string;
  matcher: MatchFunction<Partial<Record<string, string | string[]>>>;
}

const joinPath = (...parts: (string | undefined)[]) =>
  '/' +
  parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter((s) => s.length > 0)
    .join('/');

/**
 * Every route of the app with its scopes, read from the controllers' metadata. It serves
 * the 405 answer, the entity-prefixed aliases and the permission snapshot test.
 */
@Injectable()
export class RouteRegistry {
  private cache?: RouteInfo[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  routes(): RouteInfo[] {
    if (this.cache) return this.cache;
    const routes: RouteInfo[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { instance, metatype } = wrapper;
      if (!instance || !metatype) continue;
      const controllerPaths = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const proto = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const methodPaths = Reflect.getMetadata(PATH_METADATA, handler);
        if (methodPaths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const scopes =
          this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, [handler, metatype]) ?? null;
        const isPublic = Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, [handler, metatype]));
        for (const controllerPath of controllerPaths) {
          for (const methodPath of ([] as string[]).concat(methodPaths)) {
            const raw = joinPath(controllerPath, methodPath);
            const path = UNVERSIONED_CONTROLLERS.includes(raw.split('/')[1])
              ? raw
              : joinPath(API_PREFIX, raw);
            const resourceType =
              controllerPaths[0]
                .split('/')
                .filter((seg) => seg.length > 0 && !seg.startsWith(':'))
                .pop() ?? '';
            routes.push({
              method,
              path,
              scopes,
              public: isPublic,
              resourceType,
              matcher: match(path, { decode: decodeSegment }),
            });
          }
        }
      }
    }
    this.cache = routes;
    return routes;
  }

  /** The route serving `method` at a concrete path, with its parameters. */
  find(
    method: string,
    path: string,
  ): { route: RouteInfo; params: Partial<Record<string, string | string[]>> } | undefined {
    const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
    for (const route of this.routes()) {
      if (route.method !== method) continue;
      const found = route.matcher(clean);
      if (found) return { route, params: found.params };
    }
    return undefined;
  }

  /** The methods served at a concrete path (for 405 and `Allow`). */
  methodsAt(path: string): string[] {
    const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
    return [
      ...new Set(
        this.routes()
          .filter((r) => r.matcher(clean))
          .map((r) => r.method),
      ),
    ];
  }
}
