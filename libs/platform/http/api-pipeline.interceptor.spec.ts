import 'reflect-metadata';
import { Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import type { DiscoveryService } from '@nestjs/core';
import {
  ApiPipelineInterceptor,
  attachPipelineInterceptor,
  conditionalRoutesWithoutRepresentation,
} from './api-pipeline.interceptor';
import { CurrentRepresentation } from './current-representation';
import { ApiResource } from './expand/expand-registry';

@Controller('things')
class ThingsController {
  @Get()
  list() {
    return [];
  }

  @Post()
  create() {
    return {};
  }

  @Patch(':id')
  update() {
    return {};
  }

  @Delete(':id')
  remove() {
    return {};
  }

  helper() {
    return undefined;
  }
}

const discovery = { getControllers: () => [{ metatype: ThingsController }] } as unknown as DiscoveryService;
const interceptor = () => Object.create(ApiPipelineInterceptor.prototype) as ApiPipelineInterceptor;
const interceptorsOf = (name: keyof ThingsController) =>
  Reflect.getMetadata(INTERCEPTORS_METADATA, ThingsController.prototype[name]) as unknown[] | undefined;

describe('attachPipelineInterceptor', () => {
  it('puts the pipeline interceptor on every route but GET, and on nothing that is not a route', () => {
    const first = interceptor();
    attachPipelineInterceptor(discovery, first);
    expect(interceptorsOf('list')).toBeUndefined();
    expect(interceptorsOf('helper')).toBeUndefined();
    for (const route of ['create', 'update', 'remove'] as const)
      expect(interceptorsOf(route)).toEqual([first]);
  });

  it("replaces an earlier app's interceptor instead of stacking a second one", () => {
    const second = interceptor();
    attachPipelineInterceptor(discovery, second);
    expect(interceptorsOf('create')).toHaveLength(1);
    expect(interceptorsOf('create')?.[0]).toBe(second);
  });
});

describe('conditionalRoutesWithoutRepresentation', () => {
  @Controller('declared')
  class DeclaredController {
    @Patch(':id')
    @CurrentRepresentation(() => Promise.resolve({}))
    update() {
      return {};
    }
  }

  @Controller('loaded')
  @ApiResource('loaded')
  class LoadedController {
    @Delete(':id')
    remove() {
      return {};
    }
  }

  @Controller('bare')
  class BareController {
    @Get(':id')
    retrieve() {
      return {};
    }

    @Post()
    create() {
      return {};
    }

    @Patch(':id')
    update() {
      return {};
    }

    @Delete(':id')
    @ApiResource('unloaded')
    remove() {
      return {};
    }
  }

  const of = (...controllers: object[]) =>
    ({ getControllers: () => controllers.map((metatype) => ({ metatype })) }) as unknown as DiscoveryService;
  const registry = {
    get: (name: string) =>
      name === 'loaded' ? { name, fields: {}, load: () => Promise.resolve(new Map()) } : undefined,
  };

  it('names the PATCH and DELETE routes with neither a declared representation nor a loadable resource', () => {
    expect(
      conditionalRoutesWithoutRepresentation(
        of(DeclaredController, LoadedController, BareController),
        registry,
      ),
    ).toEqual(['BareController.update', 'BareController.remove']);
  });

  it('finds nothing to name when every PATCH and DELETE can load its representation', () => {
    expect(
      conditionalRoutesWithoutRepresentation(of(DeclaredController, LoadedController), registry),
    ).toEqual([]);
  });
});
