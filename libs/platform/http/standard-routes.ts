import { applyDecorators, Body, Headers, Inject, Param, Query, Req, type Type } from '@nestjs/common';
import { PARAMTYPES_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { CurrentRepresentation } from './current-representation';
import { RetrieveQueryDto } from './list/list-query.dto';
import { listEnvelope } from './list/paginate';
import { Route, type RouteMethod, type RouteOptions } from './route';

/** The path a list answers at, without its query: the `url` of a list envelope. */
export const requestPath = (req: Request) => req.originalUrl.split('?')[0];

/** What a standard route documents beyond its summary (scopes and model come from the spec). */
export type RouteExtras = Omit<Partial<RouteOptions>, 'scopes' | 'summary'>;

/** The class of an application service: Nest injects its instance by this token. */
export type ServiceClass<S> = abstract new (...args: never[]) => S;

/** The names of the service's methods: what a route may call. */
export type MethodOf<S> = {
  [K in keyof S]-?: S[K] extends (...args: never[]) => unknown ? K : never;
}[keyof S] &
  string;

/** An action route's summary and options. */
export type ActionEntry = [summary: string, extras?: RouteExtras & ActionExtras];

/**
 * The actions of a spec, keyed by the method of the spec's service each one calls: every key is
 * a property of the service (go to definition lands on the method), anything else fails to compile.
 * Actions answered by another service come in through `actionsOf(OtherService, {...})`, spread
 * where they stand in the route order.
 */
export type Actions<S> = {
  [K in keyof S]?: S[K] extends (...args: never[]) => unknown ? ActionEntry | DelegatedAction : never;
};

declare const delegated: unique symbol;
/** An action bound to another service by `actionsOf`. */
export type DelegatedAction = ActionEntry & { readonly [delegated]: true };

/** The service a delegated action's entry carries, out of sight of the type. */
const SERVICE = Symbol('standard-routes:service');

/**
 * Actions answered by `service` rather than by the spec's, each keyed by its method of `service`;
 * spread into the spec's `actions` at the place the routes come in order.
 */
export function actionsOf<T>(service: ServiceClass<T>, actions: Actions<T>): Record<string, DelegatedAction> {
  return Object.fromEntries(
    Object.entries(actions as Record<string, ActionEntry>).map(([name, entry]) => [
      name,
      Object.assign([...entry], { [SERVICE]: service }) as unknown as DelegatedAction,
    ]),
  );
}

/**
 * The routes most resources share, each answered by the method of the same name of the
 * application service the spec names by its class (`delete` by `extras.call` where it differs):
 *
 * | key      | route                 | scope    | handler                          |
 * | -------- | --------------------- | -------- | -------------------------------- |
 * | create   | `POST ''`             | write    | `create(body)`, 201 with model   |
 * | list     | `GET ''`              | read     | `list(query, path)`              |
 * | retrieve | `GET ':id'`           | read     | `retrieve(id)`, with `expand[]`  |
 * | update   | `PATCH ':id'`         | write    | `update(id, body)`, model        |
 * | delete   | `DELETE ':id'`        | write    | `delete(id)`                     |
 * | actions  | `POST ':id/<name>'`   | write    | `<method>(id)`, 200 with model   |
 *
 * Every method named is checked twice: by the compiler (the keys of `actions` and every `call` are
 * methods of the service's class, so a reader jumps from an action's key to its method) and when
 * the controller's module initialises (the injected instance's method is a function), which fails
 * the boot naming the route. The service's instance is injected into the controller by its class.
 *
 * An action is keyed by the service method it calls; its handler (the operationId's tail) and its
 * path segment are the key unless `handler` (and then `path` defaults to the handler) or `path`
 * say otherwise. Its request body is `input`, passed to the service last, or `body`, validated and
 * documented but not passed on (an empty body); a GET that lists names its `query`, passed last
 * with the list's url. Its path may hold parameters of its own (`tags/:tag_id`), passed after the
 * id. It may take another HTTP method (`method`: a GET needs the read scope, and only a POST
 * answers 200 by default) and stack route-specific decorators below its route (`decorators`, e.g.
 * `ApiResource`); actions of another service are spread in with `actionsOf`. A `collection`
 * action is served at the routes' path rather than below one resource (no id); `url` passes the
 * request's path without a query, or `url: false` keeps it from a query's handler. A `singleton`
 * resource (an entity's settings) is retrieved and updated at the controller's path, without id.
 *
 * A child resource is served below its parent (`path: ':id/components'`, `id: 'component_id'`):
 * every route's path starts with `path`, the parent's parameters in it come first to the handler
 * and to the service, and `present` turns the service's records into the responses (a list's
 * rows, enveloped here, so the service's `list(...parents, query)` returns a page).
 * `create` may pass request headers after the body (`headers`, by name, e.g. `idempotency-key`).
 * `create`, `list` and `delete` may name the service method (`call`); `update` and `delete` may name
 * their handler (`handler`, the operationId's tail) where it is not the key.
 *
 * With a `retrieve`, the update, the delete and every PATCH or DELETE action of one resource
 * declare their current representation (`CurrentRepresentation`): what the retrieve answers for
 * the same resource (an action's own path parameters, `lines/:line_id`, left out), so If-Match is
 * compared with the ETag its GET sends.
 */
export interface StandardRoutesSpec<S> {
  /** The application service's class; its instance is injected into the controller. */
  service: ServiceClass<S>;
  /**
   * The scope family: reads need `<scope>:read`, writes `<scope>:write`; or the two requirements
   * themselves (e.g. `anyScope` alternatives).
   */
  scope: string | { read: string; write: string };
  /** The resource's response: the success body of create, retrieve, update and the actions. */
  model: Type;
  create?: [
    body: Type,
    summary: string,
    extras?: RouteExtras & { call?: MethodOf<NoInfer<S>>; headers?: readonly string[] },
  ];
  list?: [query: Type, summary: string, extras?: RouteExtras & { call?: MethodOf<NoInfer<S>> }];
  /** Calls the service's `retrieve`. */
  retrieve?: 'retrieve' extends MethodOf<NoInfer<S>> ? [summary: string, extras?: RouteExtras] : never;
  /** Calls the service's `update`. */
  update?: 'update' extends MethodOf<NoInfer<S>>
    ? [body: Type, summary: string, extras?: RouteExtras & { handler?: string }]
    : never;
  delete?: [
    summary: string,
    extras?: RouteExtras & { handler?: string } & ('delete' extends MethodOf<NoInfer<S>>
        ? { call?: MethodOf<NoInfer<S>> }
        : { call: MethodOf<NoInfer<S>> }),
  ];
  actions?: Actions<NoInfer<S>>;
  /** The written handler the generated actions follow, when written handlers come before them. */
  actionsAfter?: string;
  /** One instance per entity: `retrieve()` at `GET ''` (with `query` when given), `update(body)` at `PATCH ''`. */
  singleton?: { query?: Type };
  /** The routes' path below the controller's; its parameters (`:id`) are passed on first. */
  path?: string;
  /** The route parameter naming the resource; by default `id`. */
  id?: string;
  /** Turns a record the service returns into the response, and a list page's rows into the list. */
  present?: (record: never) => unknown;
}

export interface ActionExtras {
  /** The handler's name (the operationId's tail) where it is not the method's. */
  handler?: string;
  /** The path after `:id/`; by default the handler's name. Its parameters follow the id. */
  path?: string;
  /** The HTTP method; by default POST (200 unless `code` says otherwise). GET needs the read scope. */
  method?: Exclude<RouteMethod, 'PUT'>;
  /** Route-specific decorators, top to bottom as they would stack below the route. */
  decorators?: readonly MethodDecorator[];
  /** The request body's class: validated and documented, not passed on. */
  body?: Type;
  /** The request body's class, passed to the service last: `<method>(id, ...params, input)`. */
  input?: Type;
  /** A list's query class: passed to the service last with the list's url, as `list` does (no model documented). */
  query?: Type;
  /** Passes the request's path (a list's url) last; by default only with a `query`. */
  url?: boolean;
  /**
   * A route of the collection rather than of one resource: served at `<routes' path>/<path>` (the
   * routes' path itself when `path` is ''), its handler given no id.
   */
  collection?: boolean;
}

/** The handlers a controller writes itself sit in these slots when it has them. */
const CRUD = ['create', 'list', 'retrieve', 'update', 'delete'] as const;

type Service = Record<string, (...args: unknown[]) => unknown>;

interface Generated {
  /** The handler's name (its operationId) where it is not the key's. */
  handler?: string;
  /** The service's class, where it is not the spec's. */
  service?: ServiceClass<unknown>;
  /** The service method the handler calls. */
  method: string;
  route: MethodDecorator;
  /** The handler's parameters, in order: how each is read, and the class it is validated as. */
  params: [ParameterDecorator, Type | typeof Object][];
  handle: (service: Service, args: unknown[]) => unknown;
}

/** A route path's parameters (`:id/parts` → `id`), read as strings in order. */
const pathParams = (path: string): [ParameterDecorator, Type][] =>
  paramNames(path).map((name) => [Param(name), String]);

/** A route path's parameter names, in order (`:id/parts/:part_id` → `id`, `part_id`). */
const paramNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map(([, name]) => name);

function generate(spec: StandardRoutesSpec<unknown>): Map<string, Generated> {
  const { read, write } =
    typeof spec.scope === 'string'
      ? { read: `${spec.scope}:read`, write: `${spec.scope}:write` }
      : spec.scope;
  const route = (method: RouteMethod, path: string, scopes: string, summary: string, extras: RouteExtras) =>
    Route(method, path, { scopes, summary, ...extras });
  const base = spec.path ?? '';
  const item = `${base && `${base}/`}:${spec.id ?? 'id'}`;
  const parents = pathParams(base);
  const id: Generated['params'] = [...parents, [Param(spec.id ?? 'id'), String]];
  const present = spec.present as ((record: unknown) => unknown) | undefined;
  /** Calls `method` with the handler's first `count` arguments, presenting the record it answers. */
  const call =
    (method: string, count: number, record = true) =>
    (s: Service, args: unknown[]): unknown => {
      const result = s[method](...args.slice(0, count));
      return present && record ? Promise.resolve(result).then(present) : result;
    };
  const out = new Map<string, Generated>();
  if (spec.create) {
    const [body, summary, { call: method = 'create', headers = [], ...extras } = {}] = spec.create;
    out.set('create', {
      method,
      route: route('POST', base, write, summary, { returns: spec.model, ...extras }),
      params: [
        ...parents,
        [Body(), body],
        ...headers.map((name): Generated['params'][number] => [Headers(name), String]),
      ],
      handle: call(method, parents.length + 1 + headers.length),
    });
  }
  if (spec.list) {
    const [query, summary, { call: method = 'list', ...extras } = {}] = spec.list;
    const n = parents.length;
    out.set('list', {
      method,
      route: route('GET', base, read, summary, { ...extras }),
      params: [...parents, [Query(), query], [Req(), Object]],
      handle: present
        ? async (s, args) => {
            const page = (await s[method](...args.slice(0, n + 1))) as { rows: unknown[]; has_more: boolean };
            return listEnvelope(page.rows.map(present), page, requestPath(args[n + 1] as Request));
          }
        : (s, args) => s[method](...args.slice(0, n + 1), requestPath(args[n + 1] as Request)),
    });
  }
  const single = spec.singleton;
  if (spec.retrieve) {
    const [summary, extras] = spec.retrieve as [string, RouteExtras?];
    const query: Generated['params'] = single?.query ? [[Query(), single.query]] : [];
    out.set('retrieve', {
      method: 'retrieve',
      route: route('GET', single ? base : item, read, summary, { returns: spec.model, ...extras }),
      params: single ? query : [...id, [Query(), RetrieveQueryDto]],
      handle: call('retrieve', single ? 0 : id.length),
    });
  }
  // The representation a PATCH or DELETE of one resource changes is what its retrieve answers:
  // If-Match is compared with the ETag of that very object (see CurrentRepresentation).
  const retrieve = out.get('retrieve');
  const itemParams = single ? [] : [...paramNames(base), spec.id ?? 'id'];
  const conditional = (decorator: MethodDecorator): MethodDecorator => {
    if (!retrieve) return decorator;
    const property = propertyFor(spec.service as ServiceClass<unknown>);
    const current = CurrentRepresentation(async (controller, params) =>
      retrieve.handle(
        (controller as Record<symbol, Service>)[property],
        itemParams.map((name) => params[name]),
      ),
    );
    return applyDecorators(current, decorator) as MethodDecorator;
  };
  if (spec.update) {
    const [body, summary, { handler, ...extras } = {}] = spec.update as [
      Type,
      string,
      (RouteExtras & { handler?: string })?,
    ];
    out.set('update', {
      handler,
      method: 'update',
      route: conditional(
        route('PATCH', single ? base : item, write, summary, { returns: spec.model, ...extras }),
      ),
      params: single ? [[Body(), body]] : [...id, [Body(), body]],
      handle: call('update', single ? 1 : id.length + 1),
    });
  }
  if (spec.delete) {
    const [summary, { call: method = 'delete', handler, ...extras } = {}] = spec.delete as [
      string,
      (RouteExtras & { call?: string; handler?: string })?,
    ];
    out.set('delete', {
      handler,
      method,
      route: conditional(route('DELETE', item, write, summary, extras)),
      params: id,
      handle: call(method, id.length, false),
    });
  }
  for (const [method, entry] of Object.entries((spec.actions ?? {}) as Record<string, ActionEntry>)) {
    const [summary, action = {}] = entry;
    const service = (entry as { [SERVICE]?: ServiceClass<unknown> })[SERVICE];
    const {
      handler,
      path = handler ?? method,
      method: verb = 'POST',
      decorators = [],
      body,
      input,
      query,
      url = query !== undefined,
      collection = false,
      ...extras
    } = action;
    const payload = input ?? body;
    const params: Generated['params'] = [...(collection ? parents : id), ...pathParams(path)];
    // The service gets the path's parameters, then the input or the query, then the url.
    const passed = params.length + (input || query ? 1 : 0);
    if (payload) params.push([Body(), payload]);
    if (query) params.push([Query(), query]);
    if (url) params.push([Req(), Object]);
    // A list (a query, or a documented list envelope) answers rows, not the resource's model.
    const model = query || extras.list ? {} : { returns: spec.model };
    const options = { ...(verb === 'POST' ? { code: 200 } : {}), ...model, ...extras };
    const at = [collection ? base : item, path].filter(Boolean).join('/');
    const plain = route(verb, at, verb === 'GET' ? read : write, summary, options);
    // A PATCH or DELETE action (a line, a tag attachment) changes the resource it is below.
    const routed = !collection && (verb === 'PATCH' || verb === 'DELETE') ? conditional(plain) : plain;
    out.set(method, {
      handler,
      service,
      method,
      // Stacked decorators apply bottom-up: the lowest first, the route last.
      route:
        decorators.length === 0
          ? routed
          : (applyDecorators(...[...decorators].reverse(), routed) as MethodDecorator),
      params,
      handle: url
        ? (s, args) => s[method](...args.slice(0, passed), requestPath(args[params.length - 1] as Request))
        : call(method, passed),
    });
  }
  return out;
}

/** The controller property Nest injects a service's instance into, one per service class. */
const injected = new WeakMap<ServiceClass<unknown>, symbol>();
const propertyFor = (service: ServiceClass<unknown>): symbol => {
  let key = injected.get(service);
  if (!key) {
    key = Symbol(service.name);
    injected.set(service, key);
  }
  return key;
};

/** What the start-up check verifies of one generated handler. */
interface Binding {
  handler: string;
  service: ServiceClass<unknown>;
  method: string;
}

/** Defines `name` on `prototype` as a route handler, decorated as TypeScript decorates a method. */
function install(prototype: object, name: string, property: symbol, generated: Generated): void {
  const handlers = {
    [name](this: Record<symbol, Service>, ...args: unknown[]) {
      return generated.handle(this[property], args);
    },
  };
  Object.defineProperty(prototype, name, {
    value: handlers[name],
    writable: true,
    enumerable: false,
    configurable: true,
  });
  Reflect.defineMetadata(
    PARAMTYPES_METADATA,
    generated.params.map(([, type]) => type),
    prototype,
    name,
  );
  // Parameter decorators run last parameter first, then the method decorator, as compiled code does.
  for (let i = generated.params.length - 1; i >= 0; i--) generated.params[i][0](prototype, name, i);
  generated.route(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
}

/**
 * Throws, naming the route's handler, unless every generated handler's service instance (as
 * injected into `controller`) has its method as a function.
 */
export function checkStandardRoutes(controller: object): void {
  const type = controller.constructor as Type;
  const bindings = (Reflect.getMetadata(BINDINGS, type) ?? []) as Binding[];
  const wrong = bindings
    .filter(({ service, method }) => {
      const instance = (controller as Record<symbol, Record<string, unknown> | undefined>)[
        propertyFor(service)
      ];
      return typeof instance?.[method] !== 'function';
    })
    .map(({ handler, service, method }) => `${type.name}.${handler} calls ${service.name}.${method}`);
  if (wrong.length > 0)
    throw new Error(`Standard routes without a service method (not a function): ${wrong.join('; ')}`);
}

/** The metadata key of a controller's generated handlers and the service methods they call. */
const BINDINGS = 'standard-routes:bindings';

/**
 * Gives a controller the standard routes of its resource (see `StandardRoutesSpec`). Routes are
 * registered and documented in this order: create, list, retrieve, update and delete (generated
 * or written in the class), the written handlers up to `actionsAfter` when it is given, the
 * generated actions, then the class's other handlers as written. Each service named is injected
 * by its class, and the controller's `onModuleInit` first runs `checkStandardRoutes`.
 */
export const StandardRoutes =
  <S>(spec: StandardRoutesSpec<S>): ClassDecorator =>
  (target) => {
    const prototype = (target as unknown as Type).prototype as object;
    const generated = generate(spec as StandardRoutesSpec<unknown>);
    const own = Object.getOwnPropertyNames(prototype)
      .filter((name) => name !== 'constructor')
      .map((name) => [name, Object.getOwnPropertyDescriptor(prototype, name)!] as const);
    const names = new Set([...generated].map(([key, handler]) => handler.handler ?? key));
    for (const [name] of own) {
      if (names.has(name)) throw new Error(`${target.name}.${name} is both written and generated`);
      Reflect.deleteProperty(prototype, name);
    }
    const written = new Map(own);
    const restore = (name: string) => {
      Object.defineProperty(prototype, name, written.get(name)!);
      written.delete(name);
    };
    const bindings: Binding[] = [];
    const services = new Set<ServiceClass<unknown>>();
    const add = (key: string, handler: Generated) => {
      const service = handler.service ?? (spec.service as ServiceClass<unknown>);
      const name = handler.handler ?? key;
      services.add(service);
      bindings.push({ handler: name, service, method: handler.method });
      install(prototype, name, propertyFor(service), handler);
    };
    for (const name of CRUD) {
      const handler = generated.get(name);
      if (handler) add(name, handler);
      else if (written.has(name)) restore(name);
      generated.delete(name);
    }
    if (spec.actionsAfter !== undefined) {
      const after = spec.actionsAfter;
      if (!written.has(after)) throw new Error(`${target.name}.${after} is not a written handler`);
      for (const name of [...written.keys()]) {
        restore(name);
        if (name === after) break;
      }
    }
    for (const [name, handler] of generated) add(name, handler);
    for (const name of [...written.keys()]) restore(name);
    for (const service of services) Inject(service)(prototype, propertyFor(service));
    Reflect.defineMetadata(BINDINGS, bindings, target);
    const init = (prototype as { onModuleInit?: () => unknown }).onModuleInit;
    Object.defineProperty(prototype, 'onModuleInit', {
      value: function onModuleInit(this: object) {
        checkStandardRoutes(this);
        return init?.call(this);
      },
      writable: true,
      enumerable: false,
      configurable: true,
    });
  };
