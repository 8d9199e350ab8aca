import { Injectable, SetMetadata } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Request } from 'express';
import { PlatformError } from '../errors/domain-error';
import { operationsOf } from '../openapi/operation-contract';

type Parameter = { $ref?: string; in?: string; name?: string };

/**
 * expand[] has rules of its own on every route (400 `invalid_expand` naming the path, where the
 * route expands nothing as well): the expansion checks it.
 */
const EXPAND = 'expand';

/** `/v1/tags/{id}` → `/v1/tags/:id`, the form of an Express route's path. */
const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/** A query parameter's name as the extended query parser keys it (`expand[]` → `expand`). */
const parsedName = (name: string) => name.replace(/\[\]$/, '');

export const RETIRED_QUERY_KEY = 'erp:retired-query';

/**
 * Query parameters a route no longer takes and does not describe, let through to its handler so
 * that it answers why (400 `unsupported_param`) instead of 400 `parameter_unknown`.
 */
export const RetiredQuery = (...names: string[]) => SetMetadata(RETIRED_QUERY_KEY, new Set(names));

/**
 * The query parameters each operation of the served description takes, so that a request naming
 * another one is refused (400 `parameter_unknown`) on every route, whether or not its handler reads
 * a query: a misspelt filter is an error, never an unfiltered answer. Routes the description does
 * not list (test fixtures, the operational routes outside /v1) are not checked.
 */
@Injectable()
export class DescribedQuery {
  /** `METHOD /express/path` → the names its operation takes. */
  private readonly taken = new Map<string, ReadonlySet<string>>();

  /** Reads the query parameters of every operation of `document` (called once it is mounted). */
  use(document: OpenAPIObject): void {
    const shared = (document.components?.parameters ?? {}) as Record<string, Parameter>;
    this.taken.clear();
    for (const { path, method, operation } of operationsOf(document)) {
      const names = new Set<string>();
      for (const parameter of (operation.parameters ?? []) as Parameter[]) {
        const resolved = parameter.$ref ? shared[parameter.$ref.split('/').pop()!] : parameter;
        if (resolved?.in === 'query' && resolved.name) names.add(parsedName(resolved.name));
      }
      this.taken.set(`${method.toUpperCase()} ${expressPath(path)}`, names);
    }
  }

  /**
   * Throws 400 `parameter_unknown` for the first query parameter the request's operation does not
   * take (`retired` ones, RetiredQuery, go on to the handler).
   */
  check(req: Request, retired?: ReadonlySet<string>): void {
    // Most requests carry no query string: nothing to parse.
    if (!req.url.includes('?')) return;
    const path = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof path !== 'string') return;
    const taken = this.taken.get(`${req.method === 'HEAD' ? 'GET' : req.method} ${path}`);
    if (!taken) return;
    for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
      if (taken.has(name) || retired?.has(name) || name === EXPAND) continue;
      // Named as sent: `ids[]=x` is parsed as `ids`, an array.
      const param = Array.isArray(value) ? `${name}[]` : name;
      throw new PlatformError('parameter_unknown', {
        param,
        hint: `Received unknown parameter: ${param}.`,
      }).asPreHandler();
    }
  }
}
