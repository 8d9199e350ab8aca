import 'reflect-metadata';
import { Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { RequireScopes } from '../auth/decorators';
import { Route } from './route';
import { ApiListResponse } from './list/api-list-response';

class Thing {
  id!: string;
}

class Problem {
  error!: string;
}

class Stacked {
  @Post()
  @RequireScopes('things:write')
  @ApiOperation({ summary: 'Create a thing' })
  @ApiResponse({ status: 201, type: Thing })
  create() {}

  @Post(':id/close')
  @HttpCode(200)
  @RequireScopes('things:write', 'ledger:write')
  @ApiOperation({ summary: 'Close a thing', description: 'Final.' })
  @ApiResponse({ status: 200, type: Thing })
  @ApiResponse({ status: 409, type: Problem })
  close() {}

  @Get()
  @RequireScopes('things:read')
  @ApiOperation({ summary: 'List things' })
  @ApiListResponse(Thing)
  list() {}

  @Delete(':id')
  @RequireScopes('things:write')
  @ApiOperation({ summary: 'Delete a thing' })
  remove() {}
}

class Composed {
  @Route('POST', '', { scopes: 'things:write', summary: 'Create a thing', returns: Thing })
  create() {}

  @Route('POST', ':id/close', {
    scopes: ['things:write', 'ledger:write'],
    summary: 'Close a thing',
    description: 'Final.',
    code: 200,
    returns: Thing,
    response: { status: 409, type: Problem },
  })
  close() {}

  @Route('GET', '', { scopes: 'things:read', summary: 'List things', list: Thing })
  list() {}

  @Route('DELETE', ':id', { scopes: 'things:write', summary: 'Delete a thing' })
  remove() {}
}

function metadataOf(target: object): Record<string, unknown> {
  const keys = Reflect.getMetadataKeys(target) as string[];
  return Object.fromEntries(keys.map((key) => [key, Reflect.getMetadata(key, target)]));
}

describe('Route', () => {
  it.each(['create', 'close', 'list', 'remove'] as const)(
    'sets on %s exactly the metadata of the stacked decorators',
    (method) => {
      const composed = metadataOf(Composed.prototype[method]);
      expect(Object.keys(composed).length).toBeGreaterThan(3);
      expect(composed).toEqual(metadataOf(Stacked.prototype[method]));
    },
  );

  it('documents a POST body as 201 unless a code is given', () => {
    const responses = (method: 'create' | 'close') =>
      Object.keys(Reflect.getMetadata('swagger/apiResponse', Composed.prototype[method]) as object);
    expect(responses('create')).toEqual(['201']);
    expect(responses('close').sort()).toEqual(['200', '409']);
  });
});
