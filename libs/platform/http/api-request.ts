import { IncomingMessage, ServerResponse, createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** Where the guard leaves a GET's state for its reply (api-pipeline.interceptor.ts). */
export const GET_STATE = Symbol('api-pipeline.get');

/**
 * The request object of the API's listeners: Node's, with the properties that Express's router,
 * passport, the request logger and the API's own pipeline add to every request declared in the
 * constructor, always in the same order. Every request then has one hidden class from the
 * start, and what those layers do later is a store into an existing field. Added one at a time
 * instead (about twenty per request), each addition moved the object to another hidden class
 * and copied its property descriptors: about 24 KB of garbage and over a quarter of the CPU time
 * of a plain GET (docs/performance.md, "The request object's shape").
 *
 * Names that Express defines as getters on its request prototype (`query`, `path`, `ip`, ...) and
 * methods (`get`, `accepts`, ...) are not declared: an own property would hide them.
 */
export class ApiRequest extends IncomingMessage {
  constructor(socket: Socket) {
    super(socket);
    const fields = this as unknown as Record<string | symbol, unknown>;
    // Express and its router.
    fields.res = undefined;
    fields.next = undefined;
    fields.baseUrl = undefined;
    fields.originalUrl = undefined;
    fields._parsedUrl = undefined;
    fields.params = undefined;
    // The request logger's request id.
    fields.id = undefined;
    fields.route = undefined;
    // passport.authenticate() (passport/lib/middleware/authenticate.js and http/request.js).
    fields.logIn = undefined;
    fields.login = undefined;
    fields.logOut = undefined;
    fields.logout = undefined;
    fields.isAuthenticated = undefined;
    fields.isUnauthenticated = undefined;
    fields._sessionManager = undefined;
    // The API's pipeline: listener, alias path, caller, key's rate, body.
    fields.sandbox = undefined;
    fields.aliasEntityId = undefined;
    fields.rateLimitPerMinute = undefined;
    fields.user = undefined;
    fields.caller = undefined;
    fields.body = undefined;
    fields.inexactNumbers = undefined;
    fields[GET_STATE] = undefined;
  }
}

/**
 * The response object of the API's listeners, with the fields Express and the error rendering
 * add declared up front for the same reason (`res.json`, a method of Express's response
 * prototype, is not: an own field would hide it).
 */
export class ApiResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  constructor(req: Request) {
    super(req);
    const fields = this as unknown as Record<string, unknown>;
    fields.statusCode = 200;
    fields.statusMessage = undefined;
    fields.locals = undefined;
    fields.errorCode = undefined;
  }
}

/** An HTTP server whose requests and responses are ApiRequest and ApiResponse. */
export function createApiServer(listener: RequestListener<typeof ApiRequest, typeof ApiResponse>): Server {
  return createServer({ IncomingMessage: ApiRequest, ServerResponse: ApiResponse }, listener);
}
