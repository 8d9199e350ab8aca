import 'reflect-metadata';
import { Body, Headers, type OnModuleInit, Param, Query, Req, SetMetadata, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { CURRENT_REPRESENTATION_KEY, CurrentRepresentationLoader } from './current-representation';
import { RetrieveQueryDto } from './list/list-query.dto';
import { listEnvelope } from './list/paginate';
import { Route } from './route';
import { actionsOf, checkStandardRoutes, requestPath, StandardRoutes } from './standard-routes';

class Thing {
  id!: string;
}
class CreateThing {
  name!: string;
}
class UpdateThing {
  name?: string;
}
class ThingQuery {
  limit?: number;
}
class Empty {}
class Settle {
  amount!: string;
}

type Service = Record<string, jest.Mock>;

/** The application services the generated routes are typed against; tests provide mocks in their place. */
class Things {
  create(_body: unknown): unknown {
    return undefined;
  }
  list(_query: unknown, _url: string): unknown {
    return undefined;
  }
  retrieve(_id: string): unknown {
    return undefined;
  }
  update(_id: string, _body: unknown): unknown {
    return undefined;
  }
  archive(_id: string): unknown {
    return undefined;
  }
  close(_id: string): unknown {
    return undefined;
  }
  settle(_id: string, _input: unknown): unknown {
    return undefined;
  }
  audit(_id: string): unknown {
    return undefined;
  }
  parts(_id: string, _query: unknown, _url: string): unknown {
    return undefined;
  }
  summary(_url: string): unknown {
    return undefined;
  }
  report(_query: unknown): unknown {
    return undefined;
  }
  history(_id: string): unknown {
    return undefined;
  }
  /** Not a method: no route may call it. */
  readonly label = 'things';
}
class Tags {
  add(_id: string, _body: unknown): unknown {
    return undefined;
  }
  remove(_id: string, _tagId: string): unknown {
    return undefined;
  }
}
class Parts {
  add(_id: string, _body: unknown): unknown {
    return undefined;
  }
  list(_id: string, _query: unknown): unknown {
    return undefined;
  }
  retrieve(_id: string, _partId: string): unknown {
    return undefined;
  }
  update(_id: string, _partId: string, _body: unknown): unknown {
    return undefined;
  }
  remove(_id: string, _partId: string): unknown {
    return undefined;
  }
  close(_id: string, _partId: string): unknown {
    return undefined;
  }
}
class Settings {
  retrieve(): unknown {
    return undefined;
  }
  update(_body: unknown): unknown {
    return undefined;
  }
}

/** The controller as Nest makes it: its services injected (here the mocks given for their classes), then initialised. */
async function controllerOf<C>(controller: Type<C>, services: [Type, unknown][]): Promise<C> {
  const moduleRef = await Test.createTestingModule({
    controllers: [controller],
    providers: services.map(([provide, useValue]) => ({ provide, useValue })),
  }).compile();
  await moduleRef.init();
  return moduleRef.get(controller);
}

/** A route-specific decorator stacked below a route. */
const Audited = (): MethodDecorator => SetMetadata('test:audited', true);

/** The controller as it is written out by hand. */
class Written {
  constructor(
    readonly things: Service,
    readonly tags: Service,
  ) {}

  @Route('POST', '', { scopes: 'things:write', summary: 'Create a thing', returns: Thing })
  create(@Body() body: CreateThing) {
    return this.things.create(body);
  }

  @Route('GET', '', { scopes: 'things:read', summary: 'List things', description: 'Newest first.' })
  list(@Query() query: ThingQuery, @Req() req: Request) {
    return this.things.list(query, requestPath(req));
  }

  @Route('GET', ':id', { scopes: 'things:read', summary: 'Retrieve a thing', returns: Thing })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.things.retrieve(id);
  }

  @Route('PATCH', ':id', { scopes: 'things:write', summary: 'Update a thing', returns: Thing })
  update(@Param('id') id: string, @Body() body: UpdateThing) {
    return this.things.update(id, body);
  }

  @Route('DELETE', ':id', { scopes: 'things:write', summary: 'Delete a thing' })
  delete(@Param('id') id: string) {
    return this.things.archive(id);
  }

  @Route('POST', ':id/close', { scopes: 'things:write', summary: 'Close', code: 200, returns: Thing })
  close(@Param('id') id: string, @Body() _body: Empty) {
    return this.things.close(id);
  }

  @Route('POST', ':id/settlements', { scopes: 'things:write', summary: 'Settle', code: 201, returns: Thing })
  settle(@Param('id') id: string, @Body() body: Settle) {
    return this.things.settle(id, body);
  }

  @Route('POST', ':id/tags', { scopes: 'things:write', summary: 'Tag', code: 200, returns: Thing })
  tag(@Param('id') id: string, @Body() body: CreateThing) {
    return this.tags.add(id, body);
  }

  @Route('DELETE', ':id/tags/:tag_id', { scopes: 'things:write', summary: 'Untag', returns: Thing })
  untag(@Param('id') id: string, @Param('tag_id') tagId: string) {
    return this.tags.remove(id, tagId);
  }

  @Route('GET', ':id/audit', { scopes: 'things:read', summary: 'Audit', returns: Thing })
  @Audited()
  audit(@Param('id') id: string) {
    return this.things.audit(id);
  }

  @Route('GET', ':id/parts', { scopes: 'things:read', summary: 'Parts' })
  parts(@Param('id') id: string, @Query() query: ThingQuery, @Req() req: Request) {
    return this.things.parts(id, query, requestPath(req));
  }

  @Route('GET', 'summary', { scopes: 'things:read', summary: 'Summary', returns: Thing })
  summary(@Req() req: Request) {
    return this.things.summary(requestPath(req));
  }

  @Route('GET', 'report', { scopes: 'things:read', summary: 'Report', returns: Thing })
  report(@Query() query: ThingQuery) {
    return this.things.report(query);
  }

  @Route('GET', ':id/history', { scopes: 'things:read', summary: 'History' })
  history(@Param('id') id: string) {
    return this.things.history(id);
  }
}

/** The same controller with its standard routes generated; `history` is written. */
@StandardRoutes({
  service: Things,
  scope: 'things',
  model: Thing,
  create: [CreateThing, 'Create a thing'],
  list: [ThingQuery, 'List things', { description: 'Newest first.' }],
  retrieve: ['Retrieve a thing'],
  update: [UpdateThing, 'Update a thing'],
  delete: ['Delete a thing', { call: 'archive' }],
  actions: {
    close: ['Close', { body: Empty }],
    settle: ['Settle', { path: 'settlements', input: Settle, code: 201 }],
    ...actionsOf(Tags, {
      add: ['Tag', { handler: 'tag', path: 'tags', input: CreateThing }],
      remove: ['Untag', { handler: 'untag', method: 'DELETE', path: 'tags/:tag_id' }],
    }),
    audit: ['Audit', { method: 'GET', decorators: [Audited()] }],
    parts: ['Parts', { method: 'GET', query: ThingQuery }],
    summary: ['Summary', { collection: true, method: 'GET', url: true }],
    report: ['Report', { collection: true, method: 'GET', query: ThingQuery, url: false, returns: Thing }],
  },
})
class Generated {
  constructor(readonly things: Things) {}

  @Route('GET', ':id/history', { scopes: 'things:read', summary: 'History' })
  history(@Param('id') id: string) {
    return this.things.history(id);
  }
}

const handlers = [
  'create',
  'list',
  'retrieve',
  'update',
  'delete',
  'close',
  'settle',
  'tag',
  'untag',
  'audit',
  'parts',
  'summary',
  'report',
  'history',
];

/** A handler's metadata, but the current-representation loader (a closure: see `currentOf`). */
function metadataOf(target: object, key?: string): Record<string, unknown> {
  const keys = (key ? Reflect.getMetadataKeys(target, key) : Reflect.getMetadataKeys(target)) as string[];
  const read = (k: string) => (key ? Reflect.getMetadata(k, target, key) : Reflect.getMetadata(k, target));
  return Object.fromEntries(
    keys.filter((k) => !k.startsWith('design:') && k !== CURRENT_REPRESENTATION_KEY).map((k) => [k, read(k)]),
  );
}

/** The current-representation loader a route declares (undefined: none). */
const currentOf = (handler: object) =>
  Reflect.getMetadata(CURRENT_REPRESENTATION_KEY, handler) as CurrentRepresentationLoader | undefined;

const proto = (c: { prototype: object }) => c.prototype as Record<string, (...args: unknown[]) => unknown>;

describe('StandardRoutes', () => {
  it('defines the handlers in route order: the standard ones, the actions, then the written ones', () => {
    const names = (c: { prototype: object }) =>
      Object.getOwnPropertyNames(c.prototype).filter((n) => n !== 'constructor' && n !== 'onModuleInit');
    expect(names(Generated)).toEqual(handlers);
    expect(names(Generated)).toEqual(names(Written));
  });

  it.each(handlers)('gives %s the metadata of the handler written out', (name) => {
    const generated = metadataOf(proto(Generated)[name]);
    expect(Object.keys(generated).length).toBeGreaterThan(3);
    expect(generated).toEqual(metadataOf(proto(Written)[name]));
    expect(Reflect.getMetadata(PARAMTYPES_METADATA, Generated.prototype, name)).toEqual(
      Reflect.getMetadata(PARAMTYPES_METADATA, Written.prototype, name),
    );
    expect(proto(Generated)[name].name).toBe(name);
    // The PATCH and DELETE routes of one thing, and only they, declare its current representation.
    expect(currentOf(proto(Generated)[name]) !== undefined).toBe(
      ['update', 'delete', 'untag'].includes(name),
    );
  });

  it("loads a PATCH or DELETE route's current representation with the retrieve of the thing it changes", async () => {
    const mocks = (type: Type) =>
      Object.fromEntries(Object.getOwnPropertyNames(type.prototype).map((n) => [n, jest.fn()])) as Service;
    const things = mocks(Things);
    things.retrieve.mockResolvedValue({ id: 't1', version: 3 });
    const controller = await controllerOf(Generated, [
      [Things, things],
      [Tags, mocks(Tags)],
    ]);
    for (const name of ['update', 'delete', 'untag']) {
      const current = await currentOf(proto(Generated)[name])!(controller as object, {
        id: 't1',
        tag_id: 'g1',
      });
      expect(current).toEqual({ id: 't1', version: 3 });
    }
    // An action's own parameters (tag_id) are not the thing's.
    expect(things.retrieve.mock.calls).toEqual([['t1'], ['t1'], ['t1']]);
  });

  it('reads the parameters as the written handlers do, in the same order', () => {
    for (const name of handlers) {
      expect(JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, Generated, name))).toBe(
        JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, Written, name)),
      );
    }
  });

  it('calls the service as the written handlers do', async () => {
    const calls = (controller: Record<string, (...args: unknown[]) => unknown>, service: Service) => {
      const req = { originalUrl: '/v1/things?limit=2' };
      controller.create({ name: 'a' });
      controller.list({ limit: 2 }, req);
      controller.retrieve('t1', {});
      controller.update('t1', { name: 'b' });
      controller.delete('t1');
      controller.close('t1', {});
      controller.settle('t1', { amount: '1.00' });
      controller.tag('t1', { name: 'red' });
      controller.untag('t1', 'g1');
      controller.audit('t1');
      controller.parts('t1', { limit: 3 }, { originalUrl: '/v1/things/t1/parts?limit=3' });
      controller.summary({ originalUrl: '/v1/things/summary' });
      controller.report({ limit: 4 });
      return Object.fromEntries(Object.entries(service).map(([name, fn]) => [name, fn.mock.calls]));
    };
    const service = () =>
      Object.fromEntries(
        [
          'create',
          'list',
          'retrieve',
          'update',
          'archive',
          'close',
          'settle',
          'audit',
          'parts',
          'summary',
          'report',
          'add',
          'remove',
        ].map((n) => [n, jest.fn()]),
      ) as Service;
    const a = service();
    const b = service();
    const written = calls(new Written(a, a) as unknown as Record<string, (...args: unknown[]) => unknown>, a);
    const controller = await controllerOf(Generated, [
      [Things, b],
      [Tags, b],
    ]);
    const generated = calls(controller as unknown as Record<string, (...args: unknown[]) => unknown>, b);
    expect(generated).toEqual(written);
    expect(generated.list).toEqual([[{ limit: 2 }, '/v1/things']]);
    expect(generated.remove).toEqual([['t1', 'g1']]);
    expect(generated.parts).toEqual([['t1', { limit: 3 }, '/v1/things/t1/parts']]);
    expect(generated.summary).toEqual([['/v1/things/summary']]);
    expect(generated.report).toEqual([[{ limit: 4 }]]);
  });

  it('passes the headers a create names after its body, read as a written handler reads them', async () => {
    class WrittenCreate {
      constructor(readonly things: Service) {}

      @Route('POST', '', { scopes: 'things:write', summary: 'Create', returns: Thing })
      create(@Body() body: CreateThing, @Headers('idempotency-key') key?: string) {
        return this.things.create(body, key);
      }
    }
    @StandardRoutes({
      service: Things,
      scope: 'things',
      model: Thing,
      create: [CreateThing, 'Create', { headers: ['idempotency-key'] }],
    })
    class GeneratedCreate {}
    expect(metadataOf(proto(GeneratedCreate).create)).toEqual(metadataOf(proto(WrittenCreate).create));
    expect(JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, GeneratedCreate, 'create'))).toBe(
      JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, WrittenCreate, 'create')),
    );
    expect(Reflect.getMetadata(PARAMTYPES_METADATA, GeneratedCreate.prototype, 'create')).toEqual(
      Reflect.getMetadata(PARAMTYPES_METADATA, WrittenCreate.prototype, 'create'),
    );
    const service = { create: jest.fn() };
    (
      (await controllerOf(GeneratedCreate, [[Things, service]])) as unknown as Record<
        string,
        (...args: unknown[]) => unknown
      >
    ).create({ name: 'a' }, 'k1');
    expect(service.create.mock.calls).toEqual([[{ name: 'a' }, 'k1']]);
  });

  it('serves a singleton at the controller path, without id', async () => {
    @StandardRoutes({
      service: Settings,
      scope: 'things',
      model: Thing,
      singleton: {},
      retrieve: ['Settings'],
      update: [UpdateThing, 'Update settings'],
    })
    class SettingsController {}
    const service = { retrieve: jest.fn(), update: jest.fn() };
    const controller = (await controllerOf(SettingsController, [[Settings, service]])) as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    controller.retrieve();
    controller.update({ name: 'x' });
    expect(service.retrieve).toHaveBeenCalledWith();
    expect(service.update).toHaveBeenCalledWith({ name: 'x' });
    service.retrieve.mockClear().mockResolvedValue({ prefix: 'S-' });
    expect(await currentOf(proto(SettingsController).update)!(controller, {})).toEqual({ prefix: 'S-' });
    expect(service.retrieve.mock.calls).toEqual([[]]);
    expect(Reflect.getMetadata('path', proto(SettingsController).update)).toBe('/');
    expect(Reflect.getMetadata(PARAMTYPES_METADATA, SettingsController.prototype, 'update')).toEqual([
      UpdateThing,
    ]);
  });

  it('serves a child resource below its parent, presenting the records the service answers', async () => {
    const present = (record: { key: string }) => ({ id: record.key });
    class WrittenChild {
      constructor(readonly parts: Service) {}

      @Route('POST', ':id/parts', { scopes: 'things:write', summary: 'Add', returns: Thing })
      async create(@Param('id') id: string, @Body() body: CreateThing) {
        return present(await this.parts.add(id, body));
      }

      @Route('GET', ':id/parts', { scopes: 'things:read', summary: 'List parts' })
      async list(@Param('id') id: string, @Query() query: ThingQuery, @Req() req: Request) {
        const page = await this.parts.list(id, query);
        return listEnvelope(page.rows.map(present), page, requestPath(req));
      }

      @Route('GET', ':id/parts/:part_id', { scopes: 'things:read', summary: 'Retrieve', returns: Thing })
      async retrieve(
        @Param('id') id: string,
        @Param('part_id') partId: string,
        @Query() _q: RetrieveQueryDto,
      ) {
        return present(await this.parts.retrieve(id, partId));
      }

      @Route('PATCH', ':id/parts/:part_id', { scopes: 'things:write', summary: 'Update', returns: Thing })
      async change(@Param('id') id: string, @Param('part_id') partId: string, @Body() body: UpdateThing) {
        return present(await this.parts.update(id, partId, body));
      }

      @Route('DELETE', ':id/parts/:part_id', { scopes: 'things:write', summary: 'Remove' })
      remove(@Param('id') id: string, @Param('part_id') partId: string) {
        return this.parts.remove(id, partId);
      }

      @Route('POST', ':id/parts/:part_id/close', {
        scopes: 'things:write',
        summary: 'Close',
        code: 200,
        returns: Thing,
      })
      async close(@Param('id') id: string, @Param('part_id') partId: string) {
        return present(await this.parts.close(id, partId));
      }
    }
    @StandardRoutes({
      service: Parts,
      scope: 'things',
      model: Thing,
      path: ':id/parts',
      id: 'part_id',
      present,
      create: [CreateThing, 'Add', { call: 'add' }],
      list: [ThingQuery, 'List parts'],
      retrieve: ['Retrieve'],
      update: [UpdateThing, 'Update', { handler: 'change' }],
      delete: ['Remove', { call: 'remove', handler: 'remove' }],
      actions: { close: ['Close'] },
    })
    class GeneratedChild {}
    const names = ['create', 'list', 'retrieve', 'change', 'remove', 'close'];
    const own = (c: { prototype: object }) =>
      Object.getOwnPropertyNames(c.prototype).filter((n) => n !== 'constructor' && n !== 'onModuleInit');
    expect(own(GeneratedChild)).toEqual(names);
    for (const name of names) {
      expect(metadataOf(proto(GeneratedChild)[name])).toEqual(metadataOf(proto(WrittenChild)[name]));
      expect(Reflect.getMetadata(PARAMTYPES_METADATA, GeneratedChild.prototype, name)).toEqual(
        Reflect.getMetadata(PARAMTYPES_METADATA, WrittenChild.prototype, name),
      );
      expect(JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, GeneratedChild, name))).toBe(
        JSON.stringify(Reflect.getMetadata(ROUTE_ARGS_METADATA, WrittenChild, name)),
      );
    }
    const calls = async (controller: Record<string, (...args: unknown[]) => unknown>, service: Service) => {
      const answers = [
        await controller.create('t1', { name: 'a' }),
        await controller.list('t1', { limit: 2 }, { originalUrl: '/v1/things/t1/parts?limit=2' }),
        await controller.retrieve('t1', 'p1', {}),
        await controller.change('t1', 'p1', { name: 'b' }),
        await controller.remove('t1', 'p1'),
        await controller.close('t1', 'p1'),
      ];
      return {
        answers,
        calls: Object.fromEntries(Object.entries(service).map(([n, fn]) => [n, fn.mock.calls])),
      };
    };
    const service = () => {
      const s = Object.fromEntries(
        ['add', 'retrieve', 'update', 'close'].map((n) => [n, jest.fn(async () => ({ key: n }))]),
      ) as Service;
      s.list = jest.fn(async () => ({ rows: [{ key: 'r' }], has_more: false }));
      s.remove = jest.fn(async () => ({ deleted: true }));
      return s;
    };
    const a = service();
    const b = service();
    const written = await calls(
      new WrittenChild(a) as unknown as Record<string, (...args: unknown[]) => unknown>,
      a,
    );
    const generated = await calls(
      (await controllerOf(GeneratedChild, [[Parts, b]])) as unknown as Record<
        string,
        (...args: unknown[]) => unknown
      >,
      b,
    );
    expect(generated).toEqual(written);
    expect(generated.answers[1]).toEqual({
      object: 'list',
      data: [{ id: 'r' }],
      has_more: false,
      url: '/v1/things/t1/parts',
    });
    expect(generated.answers[4]).toEqual({ deleted: true });
    // A child's PATCH and DELETE compare If-Match with the child as its retrieve presents it.
    const c = service();
    const child = await controllerOf(GeneratedChild, [[Parts, c]]);
    for (const name of ['change', 'remove'])
      expect(
        await currentOf(proto(GeneratedChild)[name])!(child as object, { id: 't1', part_id: 'p1' }),
      ).toEqual({
        id: 'retrieve',
      });
    expect(c.retrieve.mock.calls).toEqual([
      ['t1', 'p1'],
      ['t1', 'p1'],
    ]);
  });

  it('requires the read and write scopes given in place of a scope family', () => {
    @StandardRoutes({
      service: Things,
      scope: { read: 'a:read|b:read', write: 'a:write|b:write' },
      model: Thing,
      list: [ThingQuery, 'List things'],
      actions: { close: ['Close'] },
    })
    class Either {}
    class WrittenEither {
      @Route('GET', '', { scopes: 'a:read|b:read', summary: 'List things' })
      list() {}

      @Route('POST', ':id/close', { scopes: 'a:write|b:write', summary: 'Close', code: 200, returns: Thing })
      close() {}
    }
    for (const name of ['list', 'close']) {
      expect(metadataOf(proto(Either)[name])).toEqual(metadataOf(proto(WrittenEither)[name]));
    }
  });

  it('places the generated actions after the written handler named by actionsAfter', () => {
    @StandardRoutes({
      service: Things,
      scope: 'things',
      model: Thing,
      retrieve: ['Retrieve a thing'],
      actionsAfter: 'lines',
      actions: { close: ['Close'] },
    })
    class Interleaved {
      @Route('GET', ':id/lines', { scopes: 'things:read', summary: 'Lines' })
      lines() {}

      @Route('GET', ':id/history', { scopes: 'things:read', summary: 'History' })
      history() {}
    }
    expect(Object.getOwnPropertyNames(Interleaved.prototype).filter((n) => n !== 'constructor')).toEqual([
      'retrieve',
      'lines',
      'close',
      'history',
      'onModuleInit',
    ]);
  });

  it('refuses a handler both written and generated', () => {
    expect(() => {
      @StandardRoutes({ service: Things, scope: 'things', model: Thing, retrieve: ['Retrieve'] })
      class Twice {
        retrieve() {}
      }
      return Twice;
    }).toThrow('Twice.retrieve is both written and generated');
  });

  it('fails the module initialisation naming every route whose service has no such method', async () => {
    @StandardRoutes({
      service: Things,
      scope: 'things',
      model: Thing,
      retrieve: ['Retrieve a thing'],
      actions: {
        close: ['Close'],
        ...actionsOf(Tags, { remove: ['Untag', { handler: 'untag', path: 'tags/:tag_id' }] }),
      },
    })
    class Checked {}
    // The instances Nest injects lack `close` (Things) and have a `remove` that is not a function (Tags).
    const things = { retrieve: jest.fn() };
    const tags = { remove: 'not a function' };
    await expect(
      controllerOf(Checked, [
        [Things, things],
        [Tags, tags],
      ]),
    ).rejects.toThrow(
      'Standard routes without a service method (not a function): Checked.close calls Things.close; Checked.untag calls Tags.remove',
    );
    const complete = { retrieve: jest.fn(), close: jest.fn() };
    await expect(
      controllerOf(Checked, [
        [Things, complete],
        [Tags, { remove: jest.fn() }],
      ]),
    ).resolves.toBeInstanceOf(Checked);
  });

  it('runs the check before the onModuleInit the controller writes', async () => {
    const order: string[] = [];
    @StandardRoutes({ service: Things, scope: 'things', model: Thing, retrieve: ['Retrieve a thing'] })
    class WithInit implements OnModuleInit {
      onModuleInit() {
        order.push('written');
      }
    }
    await controllerOf(WithInit, [[Things, { retrieve: jest.fn() }]]);
    expect(order).toEqual(['written']);
    const missing = new WithInit();
    expect(() => missing.onModuleInit()).toThrow('WithInit.retrieve calls Things.retrieve');
    expect(order).toEqual(['written']);
    expect(() => checkStandardRoutes(missing)).toThrow('WithInit.retrieve calls Things.retrieve');
  });

  it('refuses at compile time an action, a call or a route that is not a method of its service', () => {
    const spec = { scope: 'things', model: Thing } as const;
    // Each class below would fail `tsc` without its expect-error line; the decorators still run.
    @StandardRoutes({
      ...spec,
      service: Things,
      // @ts-expect-error -- `archive` is a method of Things, `remove` is not.
      delete: ['Delete a thing', { call: 'remove' }],
    })
    class WrongCall {}
    @StandardRoutes({
      ...spec,
      service: Things,
      // @ts-expect-error -- `label` is a property of Things, not a method.
      actions: { label: ['Label'] },
    })
    class NotAMethod {}
    @StandardRoutes({
      ...spec,
      service: Things,
      // @ts-expect-error -- Things has no `reopen`.
      actions: { reopen: ['Reopen'] },
    })
    class NoSuchMethod {}
    @StandardRoutes({
      ...spec,
      service: Things,
      actions: {
        close: ['Close'],
        // @ts-expect-error -- `close` is a method of Things, not of Tags.
        ...actionsOf(Tags, { close: ['Close a tag'] }),
      },
    })
    class OtherService {}
    @StandardRoutes({
      ...spec,
      service: Tags,
      // @ts-expect-error -- Tags has no `retrieve` for a retrieve route to call.
      retrieve: ['Retrieve a tag'],
    })
    class NoRetrieve {}
    const own = (c: { prototype: object }) => Object.getOwnPropertyNames(c.prototype);
    expect(own(WrongCall)).toContain('delete');
    expect(own(NotAMethod)).toContain('label');
    expect(own(NoSuchMethod)).toContain('reopen');
    expect(own(OtherService)).toContain('close');
    expect(own(NoRetrieve)).toContain('retrieve');
  });
});
