import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PlatformError } from '../errors/domain-error';
import { sendError } from './request-pipeline.middleware';
import { API_PREFIX, RouteRegistry } from './route-registry';

const ALIAS = /^\/v1\/entities\/([^/?]+)(\/[^?]*)?(\?.*)?$/;
const ALIAS_PREFIX = '/v1/entities/';

/**
 * Serves every flat route also under `/v1/entities/{entity_id}/...`. The entity id is kept
 * for the guard, which answers 403 `entity_isolation_violation` when it is not the key's.
 * Paths that are platform routes in their own right (api_keys, webhook endpoints, ...) pass.
 */
export function entityAliasMiddleware(registry: () => RouteRegistry): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.url.startsWith(ALIAS_PREFIX)) return next();
    const found = ALIAS.exec(req.url);
    if (!found) return next();
    const [, entityId, rest = '', query = ''] = found;
    let decodedEntityId: string;
    try {
      decodedEntityId = decodeURIComponent(entityId);
    } catch {
      // As Express answers for any other route parameter that is not valid percent-encoding.
      return sendError(
        res,
        new PlatformError('parameter_invalid', { hint: `Failed to decode param '${entityId}'` }),
      );
    }
    const routes = registry();
    const path = `${API_PREFIX}/entities/${entityId}${rest}`;
    if (routes.methodsAt(path).length > 0) return next();
    const flat = `${API_PREFIX}${rest}`;
    if (rest === '' || routes.methodsAt(flat).length === 0) return next();
    (req as Request & { aliasEntityId?: string }).aliasEntityId = decodedEntityId;
    req.url = flat + query;
    next();
  };
}
