import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestContext } from '../tenancy/request-context';
import { PlatformError } from '../errors/domain-error';
import { bearerChallenge, renderError, routeNotFound } from './error-envelope';
import { closeIfBodyUnread } from './request-body';
import { RouteRegistry } from './route-registry';

/** The single place where errors become HTTP responses; never leaks stacks or SQL. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(private readonly routes: RouteRegistry) {}

  /** A routing miss on a path that other methods serve is a 405 with `Allow`. */
  private methodNotAllowed(req: Request, res: Response): PlatformError | undefined {
    // Nest answers routing misses from a router mounted at the global prefix, where `req.path`
    // has lost the prefix; `baseUrl` restores it (and reflects an entity-alias rewrite).
    const methods = this.routes.methodsAt(`${req.baseUrl ?? ''}${req.path}`);
    if (methods.length === 0) return undefined;
    res.setHeader('Allow', methods.join(', '));
    return new PlatformError('method_not_allowed', {
      hint: `${req.method} is not allowed on this path; allowed: ${methods.join(', ')}.`,
    }).asPreHandler();
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const requestId = RequestContext.requestId() ?? (res.getHeader('Request-Id') as string | undefined);
    const error =
      exception instanceof NotFoundException
        ? (this.methodNotAllowed(req, res) ?? routeNotFound(`${req.baseUrl ?? ''}${req.path}`))
        : exception;
    const { status, body, internal, headers, outage } = renderError(error, requestId);
    if (outage) {
      this.logger.warn(
        { err: internal, request_id: requestId, path: req.originalUrl },
        'service unavailable',
      );
    } else if (internal !== undefined) {
      this.logger.error({ err: internal, request_id: requestId, path: req.originalUrl }, 'unhandled error');
    }
    (res as Response & { errorCode?: string }).errorCode = body.code;
    if (res.headersSent) return;
    closeIfBodyUnread(req, res);
    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
    if (status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(req));
    res.status(status).json(body);
  }
}
